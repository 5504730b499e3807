/** How the deploy hook is retried: a few attempts, each with a timeout, within a bounded total time. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Each attempt is abandoned (and counts as a timeout) after this long. */
  attemptTimeoutMs: number;
  /** The wait before the second attempt; it doubles before each further one. */
  baseDelayMs: number;
  /** No wait between attempts is longer than this, a host's Retry-After included. */
  maxDelayMs: number;
  /** No attempt starts that could not finish within this time from the first one. */
  totalBudgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  attemptTimeoutMs: 10_000,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  totalBudgetMs: 3 * 60_000,
};

/** How one attempt ended: an HTTP status (with its Retry-After, in ms), or no answer at all. */
export type AttemptResult =
  { kind: 'status'; status: number; retryAfterMs: number | null } | { kind: 'network' } | { kind: 'timeout' };

/** Whether another attempt may help: no answer, a timeout, 408, 429 or a 5xx. Other answers are final. */
export function isRetryable(result: AttemptResult): boolean {
  if (result.kind !== 'status') return true;
  return result.status === 408 || result.status === 429 || result.status >= 500;
}

/**
 * The wait before the next attempt after `attempt` (1-based) failed with `result`, or null to stop:
 * a final answer, no attempts left, a Retry-After beyond the cap (the host asks for a longer pause
 * than we hold a delivery for), or no time left in the budget. Up to a fifth of jitter is added to
 * the exponential delay so that instances and hosts do not retry in step.
 */
export function nextRetryDelay(
  result: AttemptResult,
  { attempt, elapsedMs }: { attempt: number; elapsedMs: number },
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): number | null {
  if (!isRetryable(result) || attempt >= policy.maxAttempts) return null;
  const retryAfterMs = result.kind === 'status' ? result.retryAfterMs : null;
  if (retryAfterMs !== null && retryAfterMs > policy.maxDelayMs) return null;
  const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
  const delay = Math.min(policy.maxDelayMs, Math.max(retryAfterMs ?? 0, backoff * (1 + random() / 5)));
  if (elapsedMs + delay + policy.attemptTimeoutMs > policy.totalBudgetMs) return null;
  return Math.round(delay);
}

/** A Retry-After header as milliseconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
