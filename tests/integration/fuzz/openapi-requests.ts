/**
 * Generated requests for every operation of the OpenAPI document the app serves (issue 34): its
 * path parameters, query parameters and body fields, read from the document itself, so a route
 * added to the API is fuzzed without a change to the tests.
 */
import fc from 'fast-check';
import { encoded, jsonBody, parameterValue, percentEncode, type Examples } from './hostile-values.ts';

type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  /** Who may call it (`x-access`): public, user, member or admin. */
  access: string;
  parameters: Parameter[];
  body: { mediaType: string; schema: JsonSchema } | null;
}

export interface GeneratedRequest {
  url: string;
  body?: { contentType: string; payload: string };
}

/** Every operation of the document, with its parameters and its body's media type and schema. */
export function operationsOf(document: { paths: Record<string, Record<string, JsonSchema>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const { content } = (operation.requestBody ?? {}) as {
        content?: Record<string, { schema: JsonSchema }>;
      };
      const [mediaType, body] = Object.entries(content ?? {})[0] ?? [];
      return {
        method: method.toUpperCase(),
        path,
        access: String(operation['x-access']),
        parameters: (operation.parameters ?? []) as Parameter[],
        body: mediaType && body ? { mediaType, schema: body.schema } : null,
      };
    }),
  );
}

/** Whether an operation takes anything to generate: without, one request says all there is. */
export function takesInput(operation: Operation): boolean {
  return operation.parameters.length > 0 || operation.body !== null;
}

/** A form body as a mail app or Meta sends one, every byte of the values kept. */
function formPayload(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return percentEncode(String(value));
  return Object.entries(value)
    .map(([key, field]) => {
      const text = typeof field === 'string' ? field : JSON.stringify(field);
      return `${percentEncode(key)}=${percentEncode(text)}`;
    })
    .join('&');
}

/**
 * Requests for one operation: each path parameter, query parameter and body field generated
 * (`examples` give values by name that pass checks a schema cannot say).
 */
export function requestsFor(operation: Operation, examples: Examples): fc.Arbitrary<GeneratedRequest> {
  const inPath = operation.parameters.filter((parameter) => parameter.in === 'path');
  const inQuery = operation.parameters.filter((parameter) => parameter.in === 'query');
  const value = (parameter: Parameter) => {
    const example = examples[parameter.name] as fc.Arbitrary<string> | undefined;
    const generated = parameterValue(parameter.schema);
    return encoded(example ? fc.oneof(example, generated) : generated);
  };
  const pathValues = fc.tuple(...inPath.map(value));
  // A query parameter is left out, given once, or given several times (an array, not a string).
  const queryValues = fc.tuple(
    ...inQuery.map((parameter) =>
      fc.option(fc.array(value(parameter), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    ),
  );
  const body = operation.body
    ? jsonBody(operation.body.schema, examples).map((generated) => ({ generated }))
    : fc.constant(null);
  return fc.tuple(pathValues, queryValues, body).map(([paths, queries, payload]) => {
    let url = operation.path;
    inPath.forEach((parameter, index) => {
      url = url.replace(`{${parameter.name}}`, paths[index] ?? '');
    });
    const query = inQuery.flatMap((parameter, index) =>
      (queries[index] ?? []).map((text) => `${parameter.name}=${text}`),
    );
    if (query.length > 0) url += `?${query.join('&')}`;
    if (!payload || !operation.body) return { url };
    const { mediaType } = operation.body;
    const text =
      mediaType === 'application/json' ? JSON.stringify(payload.generated) : formPayload(payload.generated);
    return { url, body: { contentType: mediaType, payload: text } };
  });
}
