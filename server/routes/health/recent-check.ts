/** How old a check health may answer with (DESIGN section 8: hot reads, at most a second). */
export const HEALTH_CHECK_MAX_AGE_MS = 1000;

export interface RecentCheckOptions {
  maxAgeMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

/**
 * Wraps a check so that calls within `maxAgeMs` of the last one's start share its answer (a failure
 * included): under load, health queries the database about once a second instead of on every call,
 * and concurrent calls wait on one query. The age counts from the start, so no answer is older.
 */
export function recentCheck<T>(
  check: () => Promise<T>,
  { maxAgeMs = HEALTH_CHECK_MAX_AGE_MS, now = Date.now }: RecentCheckOptions = {},
): () => Promise<T> {
  let last: { startedAt: number; answer: Promise<T> } | null = null;
  return () => {
    const at = now();
    if (last && at - last.startedAt < maxAgeMs && at >= last.startedAt) return last.answer;
    const answer = check();
    last = { startedAt: at, answer };
    return answer;
  };
}
