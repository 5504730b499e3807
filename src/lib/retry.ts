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

/** Runs `task` until it succeeds or the policy's retries are spent; rethrows the last error. */
export async function withRetry<T>(task: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= policy.retries) throw error;
      await wait(retryDelay(attempt, policy));
    }
  }
}
