import type { FastifyPluginAsync } from 'fastify';
import type { Health } from '../../../contract/health.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { VERSION } from '../../version.ts';
import { recentCheck, type RecentCheckOptions } from './recent-check.ts';

export interface HealthRoutesOptions {
  database: DatabaseHandle;
  /** How long a database check is reused, and its clock (tests). */
  check?: RecentCheckOptions;
}

/**
 * `GET /api/health`: 200 when the database answers, 503 (with Retry-After) when it does not. The
 * database check is at most a second old (PGlite runs one query at a time; health is polled).
 */
const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { database, check }) => {
  const databaseAnswers = recentCheck(() => database.ping(), check);
  app.get('/api/health', { config: { access: 'public' } }, async (_request, reply) => {
    const dbOk = await databaseAnswers();
    const body: Health = {
      status: dbOk ? 'ok' : 'degraded',
      db: dbOk ? 'ok' : 'unavailable',
      version: VERSION,
      uptime: Math.round(process.uptime()),
    };
    if (!dbOk) reply.status(503).header('Retry-After', '5');
    return body;
  });
};

export default healthRoutes;
