import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { threadsTokens } from '../../../server/db/schema.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { decryptToken } from '../../../server/threads/token-cipher.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { api, authorizationCode, REDIRECT_URI, sessionCookie, signIn, startApp } from './helpers.ts';

// Security rows 3 and 22: whatever happens, at the most verbose level, no token, code or secret
// reaches the log.
const HOUR = 3_600_000;

function logCapture() {
  let text = '';
  return { stream: { write: (line: string) => void (text += line) }, text: () => text };
}

/** Every stored Threads token, decrypted: the values that must never be logged. */
async function storedTokens(): Promise<string[]> {
  const { db } = await testDatabase();
  const rows = await db.select().from(threadsTokens);
  return rows.map((row) => decryptToken(row.ciphertext, row.userId, TEST_SECRETS.tokenKey));
}

function expectClean(log: string, secrets: string[]) {
  expect(log.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(5);
    expect(log).not.toContain(secret);
  }
  expect(log).not.toMatch(/code=|client_secret|access_token=|"authorization"|"cookie"/i);
}

let fake: Server;
let fakeBase: string;
let failure: 'server-error' | 'graph-error' = 'server-error';
const LIVE_SECRET = 'live-secret-that-must-not-leak-42';
const LEAKY_CODE = 'AQB-code-that-must-not-leak-0042';

beforeAll(async () => {
  // A Graph server that fails every call; the graph error echoes the code, as error bodies can.
  fake = createServer((_request, response) => {
    if (failure === 'server-error') return response.writeHead(500).end(`trouble with ${LEAKY_CODE}`);
    response.writeHead(400, { 'content-type': 'application/json' });
    return response.end(
      JSON.stringify({
        error: { message: `Invalid code ${LEAKY_CODE}`, type: 'OAuthException', code: 100 },
      }),
    );
  });
  fake.listen(0, '127.0.0.1');
  await once(fake, 'listening');
  fakeBase = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
});
afterAll(() => fake.close());
beforeEach(async () => resetDatabase(await testDatabase()));

test('sign-in, callback page, refresh, expiry and logout log no code, token, cookie or secret', async () => {
  let now = Date.now();
  const log = logCapture();
  const { app, base } = await startApp(
    { LOG_LEVEL: 'trace' },
    { simulatedClock: () => now, logStream: log.stream },
  );
  try {
    const code = await authorizationCode(base, 'quiet_user');
    // The browser lands on the callback page with the code in the query string.
    await fetch(`${base}/auth/callback?code=${code}&state=0123456789abcdef0123456789abcdef`);
    const response = await api(base, '/api/auth/callback', {
      method: 'POST',
      body: { code, redirect_uri: REDIRECT_URI },
    });
    expect(response.status).toBe(200);
    const cookie = sessionCookie(response);
    const tokens = await storedTokens();

    now += 25 * HOUR;
    const { db } = await testDatabase();
    await db.update(threadsTokens).set({ issuedAt: new Date(Date.now() - 25 * HOUR) });
    expect((await api(base, '/api/auth/refresh', { method: 'POST', cookie })).status).toBe(200);
    tokens.push(...(await storedTokens()));
    now += 61 * 24 * HOUR;
    await db.update(threadsTokens).set({ issuedAt: new Date(Date.now() - 25 * HOUR) });
    expect((await api(base, '/api/auth/refresh', { method: 'POST', cookie })).status).toBe(401);
    // A replayed code fails too, and is not logged either.
    await api(base, '/api/auth/callback', { method: 'POST', body: { code, redirect_uri: REDIRECT_URI } });
    await api(base, '/api/auth/logout', { method: 'POST', cookie });
    await signIn(base, 'second_user');

    expect(new Set(tokens).size).toBe(2);
    expectClean(log.text(), [
      code,
      ...tokens,
      cookie.split('=')[1] ?? '',
      TEST_SECRETS.sessionSecret,
      TEST_SECRETS.tokenKey.toString('hex'),
      TEST_SECRETS.tokenKey.toString('base64'),
      SIMULATED_APP.secret,
    ]);
  } finally {
    await app.close();
  }
});

test.each(['server-error', 'graph-error'] as const)(
  'a failing token exchange (%s) logs the failure without the code, the secret or the body',
  async (mode) => {
    failure = mode;
    const log = logCapture();
    const { app, base } = await startApp(
      {
        LOG_LEVEL: 'trace',
        THREADS_APP_ID: '123456',
        THREADS_APP_SECRET: LIVE_SECRET,
        THREADS_GRAPH_BASE_URL: fakeBase,
      },
      { logStream: log.stream },
    );
    try {
      const response = await api(base, '/api/auth/callback', {
        method: 'POST',
        body: { code: LEAKY_CODE, redirect_uri: REDIRECT_URI },
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(await response.text()).not.toContain(LEAKY_CODE);
      expectClean(log.text(), [LEAKY_CODE, LIVE_SECRET]);
    } finally {
      await app.close();
    }
  },
);
