import { describe, expect, test } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  isRetryable,
  nextRetryDelay,
  parseRetryAfter,
  type AttemptResult,
  type RetryPolicy,
} from '../../../../../server/publisher/deploy/deploy-retry.ts';

const status = (code: number, retryAfterMs: number | null = null): AttemptResult => ({
  kind: 'status',
  status: code,
  retryAfterMs,
});
const policy: RetryPolicy = {
  maxAttempts: 4,
  attemptTimeoutMs: 1_000,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  totalBudgetMs: 60_000,
};
const noJitter = () => 0;

describe('isRetryable', () => {
  test.each([
    [{ kind: 'network' } as const, true],
    [{ kind: 'timeout' } as const, true],
    [status(500), true],
    [status(502), true],
    [status(503), true],
    [status(429), true],
    [status(408), true],
    [status(400), false],
    [status(401), false],
    [status(403), false],
    [status(404), false],
    [status(410), false],
    [status(301), false],
  ])('%o retryable: %s', (result, expected) => {
    expect(isRetryable(result)).toBe(expected);
  });
});

describe('nextRetryDelay', () => {
  test('doubles from the base delay, then stops after the last attempt', () => {
    const delays = [1, 2, 3, 4].map((attempt) =>
      nextRetryDelay(status(503), { attempt, elapsedMs: 0 }, policy, noJitter),
    );
    expect(delays).toEqual([100, 200, 400, null]);
  });

  test('jitter adds at most a fifth', () => {
    expect(nextRetryDelay({ kind: 'network' }, { attempt: 1, elapsedMs: 0 }, policy, () => 0.999)).toBe(120);
  });

  test('a final answer is never retried', () => {
    expect(nextRetryDelay(status(404), { attempt: 1, elapsedMs: 0 }, policy, noJitter)).toBeNull();
  });

  test('Retry-After is honoured when longer than the backoff, and gives up beyond the cap', () => {
    expect(nextRetryDelay(status(429, 3_000), { attempt: 1, elapsedMs: 0 }, policy, noJitter)).toBe(3_000);
    expect(nextRetryDelay(status(503, 10), { attempt: 2, elapsedMs: 0 }, policy, noJitter)).toBe(200);
    expect(nextRetryDelay(status(429, 5_001), { attempt: 1, elapsedMs: 0 }, policy, noJitter)).toBeNull();
  });

  test('no attempt starts that could not finish within the total budget', () => {
    const tight = { ...policy, totalBudgetMs: 2_000 };
    expect(nextRetryDelay(status(500), { attempt: 1, elapsedMs: 800 }, tight, noJitter)).toBe(100);
    expect(nextRetryDelay(status(500), { attempt: 1, elapsedMs: 1_000 }, tight, noJitter)).toBeNull();
  });

  test('the default policy is bounded: a few attempts, each timed out, within minutes', () => {
    const { maxAttempts, attemptTimeoutMs, maxDelayMs, totalBudgetMs } = DEFAULT_RETRY_POLICY;
    expect(maxAttempts).toBeLessThanOrEqual(6);
    expect(attemptTimeoutMs).toBeLessThanOrEqual(30_000);
    expect(maxDelayMs).toBeLessThanOrEqual(totalBudgetMs);
    expect(totalBudgetMs).toBeLessThanOrEqual(5 * 60_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  test.each([
    [null, null],
    ['', null],
    ['soon', null],
    ['0', 0],
    ['120', 120_000],
    ['Mon, 23 Nov 2026 12:00:30 GMT', 30_000],
    ['Mon, 23 Nov 2026 11:00:00 GMT', 0],
  ])('%s → %s ms', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});
