export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Delay before retry number `attempt` (0-based): exponential, capped. */
export function retryDelay(attempt: number, { baseDelayMs, maxDelayMs }: RetryPolicy): number {
  return Math.min(baseDelayMs * 2 ** attempt, maxDelayMs);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` until it succeeds or the policy's retries are spent; rethrows the last error. An error
 * `retryable` refuses is rethrown at once (a file that is not there will not appear by waiting).
 */
export async function withRetry<T>(
  task: () => Promise<T>,
  policy: RetryPolicy,
  retryable: (error: unknown) => boolean = () => true,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= policy.retries || !retryable(error)) throw error;
      await wait(retryDelay(attempt, policy));
    }
  }
}
