import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { DatabaseHandle } from '../../../../server/db/client.ts';
import { startScheduler } from '../../../../server/jobs/scheduler.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('a job first runs after its delay, then every interval, under the job lock; failures are logged and retried', async () => {
  const lockedRuns: string[] = [];
  let allowed = true;
  const database = {
    withJobLock: async (name: string, job: () => Promise<unknown>) => {
      lockedRuns.push(name);
      return allowed ? { ran: true as const, result: await job() } : { ran: false as const };
    },
  } as unknown as DatabaseHandle;
  const messages: string[] = [];
  const log = {
    info: (_: unknown, m: string) => messages.push(m),
    error: (_: unknown, m: string) => messages.push(m),
  };
  let calls = 0;
  const stop = startScheduler(
    [
      {
        name: 'nightly',
        firstRunAfterMs: 1000,
        intervalMs: 10_000,
        run: async () => {
          calls++;
          if (calls === 2) throw new Error('Threads is down');
          return { ok: true };
        },
      },
    ],
    database,
    log as unknown as FastifyBaseLogger,
  );
  await vi.advanceTimersByTimeAsync(999);
  expect(calls).toBe(0);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toBe(1);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(calls).toBe(2);
  allowed = false; // another instance holds the lock
  await vi.advanceTimersByTimeAsync(10_000);
  expect(calls).toBe(2);
  expect(messages).toEqual(['job finished', 'job failed', 'job skipped: another instance is running it']);
  expect(lockedRuns).toEqual(['nightly', 'nightly', 'nightly']);
  stop();
  await vi.advanceTimersByTimeAsync(50_000);
  expect(lockedRuns).toHaveLength(3);
});
