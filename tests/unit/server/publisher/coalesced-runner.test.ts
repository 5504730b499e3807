import { expect, test } from 'vitest';
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
