/**
 * The OpenAPI 3.1 description of the API (issue 21), built from the routes' own zod schemas, so it
 * cannot drift from what the server validates. JSON Schema 2020-12 is OpenAPI 3.1's dialect.
 */
import { z } from '../../contract/zod.ts';
import type { $ZodType } from 'zod/v4/core';
import { ApiErrorSchema } from '../../contract/api-error.ts';
import { isZodSchema } from './route-schemas.ts';

/** Who may call a route (the access plugin's rule). */
export type RouteAccess = 'public' | 'user' | 'member' | 'admin';

/** A route as the document needs it. */
export interface DescribedRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** Meta's server-to-server callbacks: no session, no same-origin check. */
  crossSite: boolean;
  schema?: {
    params?: unknown;
    querystring?: unknown;
    body?: unknown;
    response?: Record<string | number, unknown>;
  };
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** The session cookie's name: how a signed-in call is authenticated. */
  sessionCookie: string;
}

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const ACCESS_WORDS: Record<RouteAccess, string> = {
  public: 'Anyone, signed in or not.',
  user: 'Any signed-in person (401 otherwise).',
  member: 'Approved members and admins (401 signed out, 403 otherwise).',
  admin: 'Admins only (401 signed out, 403 otherwise).',
};

/** JSON Schema of a zod schema: what a client sends (`input`) or what it reads (`output`). */
function jsonSchema(schema: $ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  // The dialect is said once for the document (jsonSchemaDialect).
  delete converted.$schema;
  return converted;
}

/** `/api/user/gems/:thread_id` as OpenAPI writes it: `/api/user/gems/{thread_id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The path and query parameters an object schema names. */
function parameters(schema: unknown, where: 'path' | 'query'): Operation[] {
  if (!isZodSchema(schema)) return [];
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

/** The documented answers: each declared status, then every error as `{detail}`. */
function responses(declared: Record<string | number, unknown> = {}): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(declared)) {
    if (status.startsWith('3')) {
      answers[status] = { description: 'Redirect to the Location header.' };
    } else if (isZodSchema(schema)) {
      const json = jsonSchema(schema, 'output');
      // A page, not data: its schema says so (route-schemas.ts htmlPage).
      const mediaType =
        typeof json.contentMediaType === 'string' ? json.contentMediaType : 'application/json';
      const content = { [mediaType]: { schema: json } };
      answers[status] = { description: status.startsWith('2') ? 'Success.' : 'See the body.', content };
    }
  }
  const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } };
  answers['4XX'] = { description: 'Refused: `detail` says why in words.', ...error };
  answers['5XX'] = { description: 'Failed or unavailable: `detail` says what to do.', ...error };
  return answers;
}

/** `PUT /api/user/gems/:thread_id` -> `putApiUserGemsThreadId`: unique, stable, readable. */
function operationId({ method, url }: DescribedRoute): string {
  const words = url.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/** One route's operation object. */
function operation(route: DescribedRoute): Operation {
  const { schema = {} } = route;
  const operationParameters = [
    ...parameters(schema.params, 'path'),
    ...parameters(schema.querystring, 'query'),
  ];
  return {
    operationId: operationId(route),
    tags: [route.url.split('/')[2] ?? 'api'],
    description: ACCESS_WORDS[route.access],
    'x-access': route.access,
    ...(route.access === 'public' ? { security: [] } : { security: [{ session: [] }] }),
    ...(operationParameters.length > 0 ? { parameters: operationParameters } : {}),
    ...(isZodSchema(schema.body)
      ? {
          requestBody: {
            required: true,
            content: {
              [route.crossSite ? 'application/x-www-form-urlencoded' : 'application/json']: {
                schema: jsonSchema(schema.body, 'input'),
              },
            },
          },
        }
      : {}),
    responses: responses(schema.response),
  };
}

/** The whole document: one path item per URL, one operation per method (HEAD is GET's twin). */
export function openApiDocument(
  routes: readonly DescribedRoute[],
  info: OpenApiInfo,
): Record<string, unknown> {
  const paths: Record<string, Record<string, Operation>> = {};
  const sorted = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    if (route.method === 'HEAD') continue;
    const path = openApiPath(route.url);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas: { ApiError: jsonSchema(ApiErrorSchema, 'output') },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: info.sessionCookie,
          description: 'The session cookie set by `POST /api/auth/callback` (sign-in with Threads).',
        },
      },
    },
  };
}
