/**
 * Routes declare their params, query, body and responses with the contract's zod schemas (issue 21):
 * Fastify validates requests with them, the handlers get their types, and the OpenAPI document is
 * built from the same schemas (openapi.ts). Errors stay `{detail}` sentences.
 */
import type { FastifyInstance, FastifyTypeProvider } from 'fastify';
import { z } from '../../contract/zod.ts';
import type { $ZodIssue, $ZodType, input, output } from 'zod/v4/core';
import { HttpError } from './http-error.ts';

/** A body serialized once and sent many times (a hot read's cache): JSON of its route's response. */
export type JsonText = string & { readonly jsonText: true };

/** Serializes a response once, for a route that sends the same body until a write. */
export function jsonText(value: unknown): JsonText {
  return JSON.stringify(value) as JsonText;
}

/** Lets `app.withTypeProvider<ZodTypeProvider>()` type a handler's request and reply from its schemas. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends $ZodType ? output<this['schema']> : unknown;
  serializer: this['schema'] extends $ZodType ? input<this['schema']> | JsonText : unknown;
}

/** Whether `value` is a zod schema (routes of the simulated provider declare none). */
export function isZodSchema(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The first problem as one sentence naming its field ("reason: ..." or "Unknown field: x."). */
export function issueSentence(issue: $ZodIssue | undefined, whole: string): string {
  if (issue?.code === 'unrecognized_keys') return `Unknown field: ${issue.keys.join(', ')}.`;
  const field = issue?.path.join('.') || whole;
  return issue?.message.includes(' ') ? `${field}: ${issue.message}` : `${field}: invalid value.`;
}

/** The answer of a route that sends an HTML page (the OpenAPI document files it under text/html). */
export const htmlPage = z.string().register(z.globalRegistry, {
  description: 'An HTML page.',
  contentMediaType: 'text/html',
});

/** What a part of the request is called in an error when the problem is the whole of it. */
const WHOLE: Record<string, string> = { body: 'body', querystring: 'query', params: 'path' };

/** Parses `data` with `schema`; the first problem becomes a readable 400. */
export function parseWith<T extends $ZodType>(schema: T, data: unknown, part = 'body'): output<T> {
  if (part === 'body' && (data === null || typeof data !== 'object' || Array.isArray(data)))
    throw new HttpError(400, 'The request body must be a JSON object.');
  const result = z.safeParse(schema, data);
  if (result.success) return result.data;
  throw new HttpError(400, issueSentence(result.error.issues[0], WHOLE[part] ?? part));
}

/**
 * Validates every request part that has a zod schema with it, and writes responses with plain
 * JSON.stringify: response schemas describe the API (the route-walk test checks real answers
 * against them), they do not filter what a handler returns.
 */
export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (!isZodSchema(schema))
      throw new Error(`A route's ${httpPart ?? 'request'} schema must be a zod schema.`);
    return (data: unknown) => {
      try {
        return { value: parseWith(schema, data, httpPart) };
      } catch (error) {
        return { error: error as Error };
      }
    };
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
