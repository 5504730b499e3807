import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { threadsTokens, users } from '../../../../server/db/schema.ts';
import { refreshDueTokens } from '../../../../server/services/tokens/refresh-tokens.ts';
import { api, REDIRECT_URI, authorizationCode, signIn, startApp } from '../../auth/helpers.ts';
import { TEST_SECRETS } from '../../helpers/app.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Graph's throttling and transient codes (threads-api.md section 10, errors) reach the token
// refresh and sign-in through the simulator's fault control and the app's own client (three tries).
const HOUR = 3_600_000;
let now = Date.now();
let started: Awaited<ReturnType<typeof startApp>>;

beforeAll(async () => {
  started = await startApp({ SIMULATED_CONTROLS: 'true' }, { simulatedClock: () => now });
});
afterAll(() => started.app.close());
beforeEach(async () => {
  await resetDatabase(await testDatabase());
  await fetch(`${started.base}/simulated-threads/_controls/faults`, { method: 'DELETE' });
});

async function fault(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${started.base}/simulated-threads/_controls/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(204);
}

/** Signs `username` in and ages their token past a day, on our clock and the provider's. */
async function dueUser(username: string): Promise<string> {
  const { db } = await testDatabase();
  await signIn(started.base, username);
  await db.update(threadsTokens).set({ issuedAt: new Date(Date.now() - 25 * HOUR) });
  now += 25 * HOUR;
  const [user] = await db.select().from(users).where(eq(users.threadsUsername, username));
  if (!user) throw new Error('no user');
  return user.id;
}

const refresh = async () =>
  refreshDueTokens({
    db: (await testDatabase()).db,
    gateway: started.app.threads.gateway,
    tokenKey: TEST_SECRETS.tokenKey,
  });

const reconnectNeeded = async (userId: string) => {
  const [user] = await (await testDatabase()).db.select().from(users).where(eq(users.id, userId));
  return user?.reconnectNeeded;
};

test.each([4, 17, 32, 613])(
  'a refresh throttled with code %i never marks "reconnect needed": it waits for the next run',
  async (code) => {
    const userId = await dueUser(`throttled${code}`);
    await fault({ path: '/refresh_access_token', code, times: 3 });
    expect(await refresh()).toEqual({
      due: 1,
      refreshed: 0,
      reconnectNeeded: 0,
      throttled: 1,
      unavailable: 0,
      failed: 0,
    });
    expect(await reconnectNeeded(userId)).toBe(false);
    // The next run, with Threads calm again, renews the same token.
    expect(await refresh()).toMatchObject({ refreshed: 1, throttled: 0 });
    expect(await reconnectNeeded(userId)).toBe(false);
  },
);

test('a transient code 2 within the client’s attempts is retried and the token renewed', async () => {
  const userId = await dueUser('transient');
  await fault({ path: '/refresh_access_token', code: 2, times: 2 });
  expect(await refresh()).toMatchObject({ refreshed: 1, unavailable: 0 });
  expect(await reconnectNeeded(userId)).toBe(false);
});

test('an outage beyond the attempts (code 1, HTTP 500) is counted as unavailable, not a reconnect', async () => {
  const userId = await dueUser('outage');
  await fault({ path: '/refresh_access_token', code: 1, times: 3 });
  expect(await refresh()).toMatchObject({ refreshed: 0, reconnectNeeded: 0, unavailable: 1 });
  expect(await reconnectNeeded(userId)).toBe(false);
});

test('code 190 (the token expired or was revoked) marks "reconnect needed"', async () => {
  const userId = await dueUser('revoked');
  await fault({ path: '/refresh_access_token', code: 190 });
  expect(await refresh()).toMatchObject({ refreshed: 0, reconnectNeeded: 1, throttled: 0 });
  expect(await reconnectNeeded(userId)).toBe(true);
});

test('a refresh refused for another reason is a failure for the next run, not a reconnect', async () => {
  const userId = await dueUser('refused');
  await fault({ path: '/refresh_access_token', code: 100, message: 'Unsupported request.' });
  expect(await refresh()).toMatchObject({ reconnectNeeded: 0, failed: 1 });
  expect(await reconnectNeeded(userId)).toBe(false);
});

test('the user’s own refresh, throttled, says Threads is busy and keeps them connected', async () => {
  const { db } = await testDatabase();
  const cookie = await signIn(started.base, 'selfrefresh');
  await db.update(threadsTokens).set({ issuedAt: new Date(Date.now() - 25 * HOUR) });
  now += 25 * HOUR;
  await fault({ path: '/refresh_access_token', code: 613, times: 3 });
  const response = await api(started.base, '/api/auth/refresh', { method: 'POST', cookie });
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('60');
  expect(await response.json()).toEqual({ detail: 'Threads is busy, try again in a minute.' });
  const [user] = await db.select().from(users).where(eq(users.threadsUsername, 'selfrefresh'));
  expect(user?.reconnectNeeded).toBe(false);
});

test('sign-in throttled at the code exchange says Threads is busy; no user is made', async () => {
  await fault({ path: '/oauth/access_token', code: 4, times: 3 });
  const code = await authorizationCode(started.base, 'busyday');
  const response = await api(started.base, '/api/auth/callback', {
    method: 'POST',
    body: { code, redirect_uri: REDIRECT_URI },
  });
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({ detail: 'Threads is busy, try again in a minute.' });
  const { db } = await testDatabase();
  expect(await db.select().from(users)).toEqual([]);
});
