import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createCurationRunsRepository, type RunTrigger } from '../../repositories/curation-runs.ts';
import { HttpError } from '../../http/http-error.ts';
import type { CurationResult } from '../../services/curation/curate.ts';
import { toCurationRunSummary } from '../../views/curation-run-views.ts';

export interface CurationRoutesOptions {
  db: Database;
  /** Runs curation under the job lock; `ran: false` when another run holds it. */
  curate: (trigger: RunTrigger) => Promise<{ ran: true; result: CurationResult } | { ran: false }>;
}

/** Admins start a curation run by hand and see how the last runs went. */
const curationRoutes: FastifyPluginAsync<CurationRoutesOptions> = async (app, { db, curate }) => {
  const runs = createCurationRunsRepository(db);

  app.post('/api/admin/refresh', { config: { access: 'admin' } }, async () => {
    const outcome = await curate('admin');
    if (!outcome.ran)
      throw new HttpError(409, 'A curation run is already in progress. Try again in a minute.');
    const run = await runs.find(outcome.result.id);
    if (!run) throw new Error('the run just finished is missing');
    return { run: toCurationRunSummary(run) };
  });

  app.get('/api/admin/runs', { config: { access: 'admin' } }, async () => ({
    runs: (await runs.latest(10)).map(toCurationRunSummary),
  }));
};

export default curationRoutes;
