import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open, migrated database (PGlite or PostgreSQL) and its job lock. */
    database: DatabaseHandle;
  }
}

export interface DatabasePluginOptions {
  database: DatabaseHandle;
}

/**
 * Puts the database on the app and closes it with the app. Registered first: Fastify runs onClose
 * hooks in reverse order, so the database is the last thing closed.
 */
const databasePlugin: FastifyPluginAsync<DatabasePluginOptions> = async (app, { database }) => {
  app.decorate('database', database);
  app.addHook('onClose', () => database.close());
};

export default fp(databasePlugin, { name: 'database' });
