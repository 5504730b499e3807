import type { FastifyPluginAsync } from 'fastify';
import type { Health } from '../../../contract/health.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { VERSION } from '../../version.ts';

/** `GET /api/health`: 200 when the database answers, 503 (with Retry-After) when it does not. */
const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get('/api/health', { config: { access: 'public' } }, async (_request, reply) => {
    const dbOk = await database.ping();
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
