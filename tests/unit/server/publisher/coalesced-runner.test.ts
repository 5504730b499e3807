import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createCoalescedRunner } from '../../../../server/publisher/coalesced-runner.ts';

const failOnError = (error: unknown) => {
  throw error;
};

test('requests made while a run waits are served by that run', async () => {
  let runs = 0;
  const runner = createCoalescedRunner(async () => void (runs += 1), { onError: failOnError });
  for (let i = 0; i < 5; i++) runner.request();
  await runner.settled();
  expect(runs).toBe(1);
});

test('a failing run is reported and the next request still runs', async () => {
  const errors: unknown[] = [];
  let runs = 0;
  const runner = createCoalescedRunner(
    async () => {
      runs += 1;
      if (runs === 1) throw new Error('first one fails');
    },
    { onError: (error) => errors.push(error) },
  );
  runner.request();
  await runner.settled();
  runner.request();
  await runner.settled();
  expect(runs).toBe(2);
  expect(errors).toHaveLength(1);
});

test('with dropWaitingOnClose, close cuts a waiting run short without running it', async () => {
  let runs = 0;
  const runner = createCoalescedRunner(async () => void (runs += 1), {
    delayMs: 3_600_000,
    onError: failOnError,
    dropWaitingOnClose: true,
  });
  runner.request();
  await runner.close();
  expect(runs).toBe(0);
});

// On a fake clock: the runner waits on the global timers, so the test moves time and counts runs.
describe('on a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a more urgent request shortens the wait, a less urgent one does not lengthen it', async () => {
    let runs = 0;
    const runner = createCoalescedRunner(async () => void (runs += 1), {
      delayMs: 1_000,
      onError: failOnError,
    });
    runner.request(60_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(runs).toBe(0);
    runner.request(); // due in 1 s, long before the first request's minute
    runner.request(600_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    // All three were served by that run: nothing waits any more.
    await vi.advanceTimersByTimeAsync(600_000);
    expect(runs).toBe(1);
  });

  test('a request made during a run is served by one more run, when it is due', async () => {
    let runs = 0;
    let release = () => {};
    const runner = createCoalescedRunner(
      async () => {
        runs += 1;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      { onError: failOnError },
    );
    runner.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    runner.request(5_000);
    runner.request(5_000);
    release();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    await runner.settled();
  });

  test('without dropWaitingOnClose, close starts a waiting run at once instead of waiting for it', async () => {
    let runs = 0;
    const runner = createCoalescedRunner(async () => void (runs += 1), { onError: failOnError });
    runner.request(3_600_000);
    await vi.advanceTimersByTimeAsync(1_000);
    const closing = runner.close();
    await vi.advanceTimersByTimeAsync(0);
    await closing;
    expect(runs).toBe(1);
    runner.request();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(runs).toBe(1);
  });
});
