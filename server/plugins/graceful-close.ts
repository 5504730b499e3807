import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** True once the app started closing: whatever answers before Fastify's hooks must step aside. */
    isClosing(): boolean;
  }
}

/**
 * Once the server starts closing, new requests get a 503 in our shape (with Retry-After) instead of
 * Fastify's bare one, and their connections are closed so clients reconnect to another instance.
 */
const gracefulClose: FastifyPluginAsync = async (app) => {
  let closing = false;
  app.decorate('isClosing', () => closing);
  // Registered early: its preClose runs before the others, which may wait for a build to finish.
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style, like the other per-request hooks: an async hook costs a promise on every request.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    void reply
      .status(503)
      .header('Retry-After', '5')
      .header('Connection', 'close')
      .send({ detail: 'The server is restarting. Please try again in a moment.' });
  });
};

export default fp(gracefulClose, { name: 'graceful-close' });
