import { createThreadsRepository } from '../../repositories/threads.ts';
import type { CurationDeps } from './run-context.ts';

/** How many approved posts one run re-checks at the source. */
const RECHECK_PER_RUN = 100;

/** Hides approved posts Threads says no longer exist; returns how many. */
export async function syncDeletions(deps: CurationDeps, token: string): Promise<number> {
  const threads = createThreadsRepository(deps.db);
  const due = await threads.listApprovedToRecheck(RECHECK_PER_RUN);
  const gone: string[] = [];
  for (const thread of due) {
    if (thread.mediaId && (await deps.gateway.post(token, thread.mediaId)) === null) gone.push(thread.id);
  }
  await threads.touch(due.map((thread) => thread.id));
  return threads.hide(gone);
}
