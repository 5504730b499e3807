import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { wakeUpBackend } from '../../../../src/lib/wake-up.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A backend that never answers: each try ends when its 5 s timeout aborts it. */
function silentBackend() {
  const tries: number[] = [];
  vi.stubGlobal('fetch', (_url: string, init: { signal: AbortSignal }) => {
    tries.push(Date.now());
    return new Promise((_resolve, reject) =>
      init.signal.addEventListener('abort', () => reject(init.signal.reason)),
    );
  });
  return tries;
}

test('a silent backend: tries of 5 s with 2 s pauses, then false once 60 s are spent', async () => {
  const tries = silentBackend();
  const start = Date.now();
  const result = wakeUpBackend();
  await vi.advanceTimersByTimeAsync(70_000);
  await expect(result).resolves.toBe(false);
  expect(tries.map((t) => t - start)).toEqual([
    0, 7000, 14_000, 21_000, 28_000, 35_000, 42_000, 49_000, 56_000,
  ]);
});

test('a backend that wakes up on the third try: true, no further tries', async () => {
  let calls = 0;
  vi.stubGlobal('fetch', async () => {
    calls++;
    return new Response('{}', { status: calls < 3 ? 503 : 200 });
  });
  const result = wakeUpBackend();
  await vi.advanceTimersByTimeAsync(10_000);
  await expect(result).resolves.toBe(true);
  expect(calls).toBe(3);
});

/** A health document as the server writes it. */
const health = (db: 'ok' | 'unavailable') =>
  JSON.stringify({ status: 'degraded', db, write: 'failing', version: '1', uptime: 3, detail: 'late' });

test("the server's own 503 whose database answers is awake (a write check lagging under load); one whose database does not is not", async () => {
  const answers = [
    new Response('<html>starting</html>', { status: 503 }),
    new Response(health('unavailable'), { status: 503 }),
    new Response(health('ok'), { status: 503 }),
  ];
  let calls = 0;
  vi.stubGlobal('fetch', async () => answers[calls++] ?? new Response('{}', { status: 500 }));
  const result = wakeUpBackend();
  await vi.advanceTimersByTimeAsync(10_000);
  await expect(result).resolves.toBe(true);
  expect(calls).toBe(3);
});
