import { expect, test } from 'vitest';
import { recentCheck } from '../../../../../server/routes/health/recent-check.ts';

function counting(answers: boolean[]) {
  let calls = 0;
  return {
    check: () => Promise.resolve(answers[Math.min(calls++, answers.length - 1)] ?? false),
    calls: () => calls,
  };
}

test('a check less than a second old is reused; at one second a new one runs', async () => {
  let now = 10_000;
  const database = counting([true, false]);
  const check = recentCheck(database.check, { now: () => now });
  expect(await check()).toBe(true);
  now += 999;
  expect(await check()).toBe(true);
  expect(database.calls()).toBe(1);
  now += 1;
  expect(await check()).toBe(false);
  expect(database.calls()).toBe(2);
});

test('a failed check is reused the same way, and the next one can succeed', async () => {
  let now = 0;
  const database = counting([false, true]);
  const check = recentCheck(database.check, { now: () => now, maxAgeMs: 1000 });
  expect(await check()).toBe(false);
  expect(await check()).toBe(false);
  now = 1000;
  expect(await check()).toBe(true);
  expect(database.calls()).toBe(2);
});

test('concurrent calls share the check in flight', async () => {
  let release: (ok: boolean) => void = () => {};
  let calls = 0;
  const check = recentCheck(
    () => {
      calls += 1;
      return new Promise<boolean>((resolve) => (release = resolve));
    },
    { now: () => 5 },
  );
  const answers = Promise.all([check(), check(), check()]);
  release(true);
  expect(await answers).toEqual([true, true, true]);
  expect(calls).toBe(1);
});

test('a clock that steps back does not keep an old answer', async () => {
  let now = 5_000;
  const database = counting([true, false]);
  const check = recentCheck(database.check, { now: () => now });
  await check();
  now = 4_000;
  expect(await check()).toBe(false);
});
