import type { FastifyPluginAsync } from 'fastify';
import { HealthSchema, type Health } from '../../../contract/health.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { VERSION } from '../../version.ts';
import { recentCheck, type RecentCheckOptions } from './recent-check.ts';
import { dataFolderWriteProbe, databaseWriteProbe } from './write-probes.ts';

export interface HealthRoutesOptions {
  database: DatabaseHandle;
  /** DATA_DIR: where the write probe's file is written and removed. */
  dataDir: string;
  /** How long a check is reused, and its clock (tests). */
  check?: RecentCheckOptions;
}

/**
 * `GET /api/health`: 200 when the database answers and the write path works (a committed database
 * write and a file written to disk in DATA_DIR); else 503 with Retry-After and the reason in `detail`.
 * Every check is at most a second old, so health stays cheap when polled (PGlite runs one query at
 * a time): about one read, one upsert and one small file a second, however often it is called.
 */
const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { database, dataDir, check }) => {
  const databaseWrites = databaseWriteProbe(database.db);
  const folderWrites = dataFolderWriteProbe(dataDir);
  // One shared answer a second: a hot health call costs one await, as the read check alone did.
  const state = recentCheck(async (): Promise<Omit<Health, 'uptime'>> => {
    const [dbOk, databaseProblem, folderProblem] = await Promise.all([
      database.ping(),
      databaseWrites(),
      folderWrites(),
    ]);
    // A database that does not answer cannot be written either: one reason says both.
    const problems = [dbOk ? databaseProblem : 'The database does not answer.', folderProblem].filter(
      (problem): problem is string => problem !== null,
    );
    const writeOk = databaseProblem === null && folderProblem === null;
    return {
      status: dbOk && writeOk ? 'ok' : 'degraded',
      db: dbOk ? 'ok' : 'unavailable',
      write: writeOk ? 'ok' : 'failing',
      version: VERSION,
      ...(problems.length > 0 ? { detail: problems.join(' ') } : {}),
    };
  }, check);
  const schema = { response: { 200: HealthSchema, 503: HealthSchema } };
  app.get('/api/health', { config: { access: 'public' }, schema }, async (_request, reply) => {
    const body: Health = { ...(await state()), uptime: Math.round(process.uptime()) };
    if (body.status !== 'ok') reply.status(503).header('Retry-After', '5');
    return body;
  });
};

export default healthRoutes;
