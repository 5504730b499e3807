import type { FastifyInstance } from 'fastify';

/**
 * Accepts `application/x-www-form-urlencoded` bodies in this plugin's scope only (the rest of the
 * API speaks JSON): Meta's callbacks, the simulated provider's token endpoint and mail apps'
 * one-click unsubscribe (RFC 8058) post forms.
 */
export function acceptFormBodies(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}
