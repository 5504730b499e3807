import type { JobTiming } from '../../server/plugins/scheduler.ts';

/** The curation interval of the multi-instance tests: short, so a few intervals fit in a test. */
export const CURATE_INTERVAL_MS = 1500;

/**
 * Instances tick often and hold short leases, so a test sees several intervals and a dead lease
 * expire within seconds; the other jobs keep their own (minutes-long) first waits.
 */
export const instanceTiming: JobTiming = {
  tickMs: 100,
  leaseMs: 3000,
  jobs: { curate: { intervalMs: CURATE_INTERVAL_MS, firstRunAfterMs: 0 } },
};

/** Waits, up to a bounded deadline, until `check` holds; fails naming `what` otherwise. */
export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
