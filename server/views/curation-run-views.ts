import type { CurationRunSummary } from '../../contract/review.ts';
import type { CurationRun } from '../repositories/curation-runs.ts';

/** A curation run as the admins' run list shows it: how it was started, how it went, what it found. */
export function toCurationRunSummary(run: CurationRun): CurationRunSummary {
  return {
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    counts: run.counts,
    searches: run.searches,
    hidden: run.hidden,
    errors: run.errors,
  };
}
