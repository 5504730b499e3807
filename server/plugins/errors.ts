import type { FastifyError, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { requestPath } from '../request-path.ts';
import { HttpError } from '../routes/http-errors.ts';

// Fastify's own messages for these are technical; the client gets a plain sentence instead.
const CLIENT_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type; send JSON (application/json).',
};

// Connection-level failures of PostgreSQL (class 08, admin shutdown 57P0x) and of the socket or
// the embedded database: the request was fine, the database was not reachable.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

/** Whether an error (or its cause, as Drizzle wraps driver errors) means the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (/PGlite is closed|Cannot use a pool after calling end|Connection terminated/i.test(current.message))
      return true;
    current = current.cause;
  }
  return false;
}

/**
 * Every error leaves as `{detail: "..."}`: client errors with a readable sentence, server errors with
 * a generic one (the cause goes to the log, never to the client).
 */
const errors: FastifyPluginAsync = async (app) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', '5')
        .send({ detail: 'The service is temporarily unavailable. Please try again in a moment.' });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    // Our own errors are worded for the user, a 502 from Threads included.
    if (error instanceof HttpError)
      return reply.status(status).headers(error.headers).send({ detail: error.message });
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ detail: 'Something went wrong on our side. Please try again.' });
    }
    const detail = (error.code && CLIENT_MESSAGES[error.code]) || error.message || 'Bad request.';
    return reply.status(status).send({ detail });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ detail: `Nothing here: ${request.method} ${requestPath(request.url)}` }),
  );
};

export default fp(errors, { name: 'errors' });
