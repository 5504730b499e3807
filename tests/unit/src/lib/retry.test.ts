import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { THREAD_FETCH_RETRY } from '../../../../contract/constants.ts';
import { retryDelay, withRetry } from '../../../../src/lib/retry.ts';

describe('retryDelay', () => {
  test('doubles from the base delay and is capped at 10 s', () => {
    expect([0, 1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, THREAD_FETCH_RETRY))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });
});

describe('withRetry', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('retries 3 times with exponential waits, then gives up with the last error', async () => {
    const task = vi.fn(async () => {
      throw new Error(`failure ${task.mock.calls.length}`);
    });
    const outcome = withRetry(task, THREAD_FETCH_RETRY).catch((error: Error) => error);

    await vi.advanceTimersByTimeAsync(0);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(task).toHaveBeenCalledTimes(1); // still waiting the first 1 s
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(task).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4000);
    expect(task).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task).toHaveBeenCalledTimes(4); // 1 attempt + 3 retries, no more

    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('failure 4');
  });

  test('returns the first success without further attempts', async () => {
    let calls = 0;
    const result = withRetry(async () => {
      calls++;
      if (calls < 3) throw new Error('not yet');
      return 'cards';
    }, THREAD_FETCH_RETRY);
    await vi.advanceTimersByTimeAsync(3000);
    await expect(result).resolves.toBe('cards');
    expect(calls).toBe(3);
  });
});
