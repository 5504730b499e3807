import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { threadsTokens, users } from '../../../../server/db/schema.ts';
import { refreshDueTokens, refreshStoredToken } from '../../../../server/services/tokens/refresh-tokens.ts';
import { createThreadsClient } from '../../../../server/threads/live-client.ts';
import { SIMULATED_APP } from '../../../../server/threads/settings.ts';
import { signIn, startApp } from '../../auth/helpers.ts';
import { TEST_SECRETS } from '../../helpers/app.ts';
import { openTestDatabase, resetDatabase, testDatabase } from '../../helpers/database.ts';

const HOUR = 3_600_000;
let now = Date.now();
let started: Awaited<ReturnType<typeof startApp>>;

beforeAll(async () => {
  started = await startApp({}, { simulatedClock: () => now });
});
afterAll(() => started.app.close());

/** The live client pointed at the test app's simulated provider: the job's real code path. */
const simulatedGateway = () =>
  createThreadsClient({
    graphBaseUrl: `${started.base}/simulated-threads`,
    appId: SIMULATED_APP.id,
    appSecret: SIMULATED_APP.secret,
  });
beforeEach(async () => resetDatabase(await testDatabase()));

test('the daily job renews tokens older than a day, leaves fresh ones, and marks refused ones "reconnect needed"', async () => {
  const { db } = await testDatabase();
  const gateway = simulatedGateway();
  await signIn(started.base, 'old_token');
  await signIn(started.base, 'fresh_token');
  const [oldUser] = await db.select().from(users).where(eq(users.threadsUsername, 'old_token'));
  if (!oldUser) throw new Error('no user');
  await db
    .update(threadsTokens)
    .set({ issuedAt: new Date(Date.now() - 25 * HOUR) })
    .where(eq(threadsTokens.userId, oldUser.id));
  now += 25 * HOUR; // the provider's clock agrees the old token is a day old

  const summary = await refreshDueTokens({ db, gateway, tokenKey: TEST_SECRETS.tokenKey });
  expect(summary).toEqual({
    due: 1,
    refreshed: 1,
    reconnectNeeded: 0,
    throttled: 0,
    unavailable: 0,
    failed: 0,
  });
  const [renewed] = await db.select().from(threadsTokens).where(eq(threadsTokens.userId, oldUser.id));
  expect(renewed?.issuedAt.getTime()).toBeGreaterThan(Date.now() - HOUR);

  // Sixty days later Threads refuses the token: the user must reconnect; the job carries on.
  now += 61 * 24 * HOUR;
  await db.update(threadsTokens).set({ issuedAt: new Date(Date.now() - 25 * HOUR) });
  const later = await refreshDueTokens({ db, gateway, tokenKey: TEST_SECRETS.tokenKey });
  expect(later).toEqual({
    due: 2,
    refreshed: 0,
    reconnectNeeded: 2,
    throttled: 0,
    unavailable: 0,
    failed: 0,
  });
  expect((await db.select().from(users)).every((user) => user.reconnectNeeded)).toBe(true);
});

test(
  'two refreshes of one token at once (the job and the user): the user stays connected',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const gateway = simulatedGateway();
    await signIn(started.base, 'twice');
    await db.update(threadsTokens).set({ issuedAt: new Date(Date.now() - 25 * HOUR) });
    now += 25 * HOUR;
    const [user] = await db.select().from(users).where(eq(users.threadsUsername, 'twice'));
    if (!user) throw new Error('no user');
    const deps = { db, gateway, tokenKey: TEST_SECRETS.tokenKey };
    const outcomes = await Promise.all([
      refreshStoredToken(user.id, deps),
      refreshStoredToken(user.id, deps),
    ]);
    // Refreshes of one user are serialised: the second waits and finds the token already renewed.
    expect(outcomes).toEqual(['refreshed', 'too_recent']);
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(after?.reconnectNeeded).toBe(false);
  },
);

// Two API instances on one PostgreSQL must not both run a job: the second would refresh a token the
// first already replaced. PGlite is a single process, so this only exists on PostgreSQL.
if (process.env.DATABASE_URL) {
  test(
    'on PostgreSQL, a job runs in one instance at a time; the other skips',
    { tags: ['engine'] },
    async () => {
      const [a, b] = [await openTestDatabase(), await openTestDatabase()];
      try {
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        const first = a.withJobLock('test-job', () => held.then(() => 'a'));
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(await b.withJobLock('test-job', async () => 'b')).toEqual({ ran: false });
        release();
        expect(await first).toEqual({ ran: true, result: 'a' });
        expect(await b.withJobLock('test-job', async () => 'b')).toEqual({ ran: true, result: 'b' });
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    },
  );
}
