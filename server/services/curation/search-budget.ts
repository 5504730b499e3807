/** Threads allows 2,200 keyword searches per user per rolling 24 hours, shared by every app. */
export const SEARCH_QUOTA_PER_DAY = 2200;
export const QUOTA_WINDOW_MS = 24 * 3_600_000;

/**
 * How many more searches a run may make: the configured budget (at most the quota, so the curator
 * keeps the rest for their own apps) minus what the last 24 hours already used.
 */
export function searchesLeft(usedInWindow: number, budget: number): number {
  return Math.max(0, Math.min(budget, SEARCH_QUOTA_PER_DAY) - usedInWindow);
}
