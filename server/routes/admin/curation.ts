import type { FastifyPluginAsync } from 'fastify';
import { CurationRunResultSchema, CurationRunsSchema } from '../../../contract/review.ts';
import type { Database } from '../../db/client.ts';
import {
  createCurationRunsRepository,
  type CurationRun,
  type RunTrigger,
} from '../../repositories/curation-runs.ts';
import { createThreadsTokensRepository } from '../../repositories/threads-tokens.ts';
import { NO_CURATOR } from '../../services/curation/curate.ts';
import { HttpError } from '../../http/http-error.ts';
import type { CurationResult } from '../../services/curation/curate.ts';
import { toCurationRunSummary } from '../../views/curation-run-views.ts';

export interface CurationRoutesOptions {
  db: Database;
  /** Runs curation under the job lock; `ran: false` when another run holds it. */
  curate: (trigger: RunTrigger) => Promise<{ ran: true; result: CurationResult } | { ran: false }>;
  /** Who may curate (CURATOR_THREADS_USERNAME, ADMIN_THREADS_USERNAMES). */
  accounts: { curatorUsername: string | null; adminUsernames: readonly string[] };
}

/** A run that failed only because nobody had signed in to curate yet (services/curation/curate.ts). */
function failedForNoCurator(run: CurationRun): boolean {
  return (
    run.status === 'failed' && run.errors.length > 0 && run.errors.every((error) => error === NO_CURATOR)
  );
}

/** Admins start a curation run by hand and see how the last runs went. */
const curationRoutes: FastifyPluginAsync<CurationRoutesOptions> = async (app, { db, curate, accounts }) => {
  const runs = createCurationRunsRepository(db);
  const tokens = createThreadsTokensRepository(db);

  const refresh = {
    config: { access: 'admin' as const },
    schema: { response: { 200: CurationRunResultSchema } },
  };
  app.post('/api/admin/refresh', refresh, async () => {
    const outcome = await curate('admin');
    if (!outcome.ran)
      throw new HttpError(409, 'A curation run is already in progress. Try again in a minute.');
    const run = await runs.find(outcome.result.id);
    if (!run) throw new Error('the run just finished is missing');
    return { run: toCurationRunSummary(run) };
  });

  // Once someone who may curate has connected, a fresh install's 'No curator' failures are history
  // that no longer applies: they are left out rather than shown as the last run.
  const list = { config: { access: 'admin' as const }, schema: { response: { 200: CurationRunsSchema } } };
  app.get('/api/admin/runs', list, async () => {
    const latest = await runs.latest(10);
    const candidates = await tokens.curationCandidates(accounts.curatorUsername, accounts.adminUsernames);
    const shown = candidates.length > 0 ? latest.filter((run) => !failedForNoCurator(run)) : latest;
    return { runs: shown.map(toCurationRunSummary) };
  });
};

export default curationRoutes;
