import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ContentChange } from '../services/content-change.ts';

type Listener = (change: ContentChange) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** Announces a committed change to public content (call it after the transaction, never inside). */
    contentChanged(change: ContentChange): void;
    /** Runs `listener` after every announced change: cache invalidation, site rebuilds. */
    onContentChanged(listener: Listener): void;
  }
}

/**
 * A small in-process bus between the routes that write public content and what depends on it, so
 * a route does not need to know about caches and the site publisher.
 */
const contentChanges: FastifyPluginAsync = async (app) => {
  const listeners: Listener[] = [];
  app.decorate('onContentChanged', (listener: Listener) => {
    listeners.push(listener);
  });
  app.decorate('contentChanged', (change: ContentChange) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (error) {
        // The write has been committed: a failing listener must not turn it into an error answer.
        app.log.error({ err: error, change }, 'a content change listener failed');
      }
    }
  });
};

export default fp(contentChanges, { name: 'content-changes' });
