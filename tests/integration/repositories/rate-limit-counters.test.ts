import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { beforeEach, expect, test, vi } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import { rateLimitCounters } from '../../../server/db/schema.ts';
import { sharedRateLimitStore, type SharedStoreOptions } from '../../../server/plugins/rate-limit-store.ts';
import {
  createRateLimitCountersRepository,
  type RateLimitCountersRepository,
} from '../../../server/repositories/rate-limit-counters.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The counters several instances share on PostgreSQL (decision 066), on the worker's database, and
// the @fastify/rate-limit store over them. The instances themselves: tests/postgres/rate-limits.test.ts.

beforeEach(async () => resetDatabase(await testDatabase()));

const HOUR = 3_600_000;

/** Moves a counter's window end by `seconds` from now (negative: it has ended). */
async function endWindowIn(db: Database, key: string, seconds: number): Promise<void> {
  await db.execute(
    sql`update ${rateLimitCounters} set reset_at = now() + make_interval(secs => ${seconds}) where key = ${key}`,
  );
}

async function storedKeys(db: Database): Promise<string[]> {
  const rows = await db.select({ key: rateLimitCounters.key }).from(rateLimitCounters);
  return rows.map((row) => row.key).sort();
}

test(
  'twenty hits at once on one key each get their own count in one window; another key counts apart',
  { tags: ['engine'] },
  async () => {
    const counters = createRateLimitCountersRepository((await testDatabase()).db);
    const [burst, other] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => counters.hit('POST /api/x user-1', HOUR))),
      Promise.all([counters.hit('POST /api/x user-2', HOUR), counters.hit('POST /api/x user-2', HOUR)]),
    ]);
    expect(burst.map((hit) => hit.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    for (const hit of burst) {
      expect(hit.resetInMs).toBeGreaterThan(0);
      expect(hit.resetInMs).toBeLessThanOrEqual(HOUR);
    }
    expect(other.map((hit) => hit.hits).sort()).toEqual([1, 2]);
  },
);

test(
  'a window keeps its end while it lasts; once it has ended the next hit starts a new one at 1',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const counters = createRateLimitCountersRepository(db);
    const key = 'POST /api/x 10.0.0.1';
    await counters.hit(key, HOUR);
    await endWindowIn(db, key, 600);
    const late = await counters.hit(key, HOUR);
    expect(late.hits).toBe(2);
    // The hour does not start again with each hit: the window still ends within those ten minutes.
    expect(late.resetInMs).toBeLessThanOrEqual(600_000);

    await endWindowIn(db, key, -1);
    const fresh = await counters.hit(key, HOUR);
    expect(fresh.hits).toBe(1);
    expect(fresh.resetInMs).toBeGreaterThan(600_000);
    expect((await counters.hit(key, HOUR)).hits).toBe(2);
  },
);

test('deleteEnded removes the counters whose window has ended, and only those', async () => {
  const { db } = await testDatabase();
  const counters = createRateLimitCountersRepository(db);
  for (const key of ['ended-a', 'ended-b', 'live']) await counters.hit(key, HOUR);
  await endWindowIn(db, 'ended-a', -1);
  await endWindowIn(db, 'ended-b', 0);
  expect(await counters.deleteEnded()).toBe(2);
  expect(await counters.deleteEnded()).toBe(0);
  expect(await storedKeys(db)).toEqual(['live']);
});

/** The store as @fastify/rate-limit 10 calls it: its types leave out what it passes at run time. */
interface StoreAtRunTime {
  child(settings: object): StoreAtRunTime;
  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void;
}

function routeStore(options: SharedStoreOptions, method: string, url: string, settings: object = {}) {
  const Store = sharedRateLimitStore(options);
  const root = new Store({}) as unknown as StoreAtRunTime;
  const store = root.child({ ...settings, routeInfo: { method, url } });
  const incr = (key: string) =>
    new Promise<{ current: number; ttl: number } | undefined>((resolve, reject) =>
      store.incr(key, (error, result) => (error ? reject(error) : resolve(result)), HOUR, 5),
    );
  return { incr };
}

function recordingLog() {
  const lines: string[] = [];
  const note = (_: unknown, message?: string) => void lines.push(message ?? String(_));
  const log = { info: note, debug: note, warn: note, error: note } as unknown as FastifyBaseLogger;
  return { log, lines };
}

test('the store counts per route and key, and answers the count and the time left', async () => {
  const { db } = await testDatabase();
  const counters = createRateLimitCountersRepository(db);
  const { log } = recordingLog();
  const invite = routeStore({ counters, log }, 'POST', '/api/user/request-invite');
  const profile = routeStore({ counters, log }, 'PUT', '/api/user/profile');
  await invite.incr('user-1');
  const second = await invite.incr('user-1');
  expect(second?.current).toBe(2);
  expect(second?.ttl).toBeGreaterThan(0);
  expect(second?.ttl).toBeLessThanOrEqual(HOUR);
  expect((await profile.incr('user-1'))?.current).toBe(1);
  expect(await storedKeys(db)).toEqual([
    'POST /api/user/request-invite user-1',
    'PUT /api/user/profile user-1',
  ]);
});

test('a hit sweeps ended windows, at most once per interval per instance', async () => {
  const { db } = await testDatabase();
  const real = createRateLimitCountersRepository(db);
  await real.hit('ended', HOUR);
  await endWindowIn(db, 'ended', -1);
  const deleteEnded = vi.fn(() => real.deleteEnded());
  const counters: RateLimitCountersRepository = { ...real, deleteEnded };
  const { incr } = routeStore({ counters, log: recordingLog().log, sweepEveryMs: HOUR }, 'POST', '/x');
  await incr('a');
  await incr('a');
  await incr('b');
  expect(deleteEnded).toHaveBeenCalledTimes(1);
  expect(await deleteEnded.mock.results[0]?.value).toBe(1);
  expect(await storedKeys(db)).toEqual(['POST /x a', 'POST /x b']);
});

test('when the database fails, the hit is an error for the plugin to skip, and a warning', async () => {
  const { db } = await testDatabase();
  const counters: RateLimitCountersRepository = {
    ...createRateLimitCountersRepository(db),
    hit: () => Promise.reject(new Error('connection refused')),
  };
  const { log, lines } = recordingLog();
  const { incr } = routeStore({ counters, log }, 'POST', '/x');
  await expect(incr('a')).rejects.toThrow('connection refused');
  expect(lines).toEqual(['rate limit not counted: the request goes through']);
});

test('a route asking for what fixed windows cannot do is refused when it is registered', () => {
  const options = { counters: createRateLimitCountersRepository({} as Database), log: recordingLog().log };
  expect(() => routeStore(options, 'POST', '/x', { continueExceeding: true })).toThrow(/continueExceeding/);
  expect(() => routeStore(options, 'POST', '/x', { exponentialBackoff: true })).toThrow(/exponentialBackoff/);
});
