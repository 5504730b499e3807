import type { FastifyError, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { requestPath } from '../http/request-path.ts';
import { HttpError } from '../http/http-error.ts';

// Fastify's own messages for these are technical; the client gets a plain sentence instead.
const CLIENT_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type; send JSON (application/json).',
};

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
