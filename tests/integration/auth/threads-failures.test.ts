import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { threadsTokens, users } from '../../../server/db/schema.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { api, REDIRECT_URI, signIn, startApp } from './helpers.ts';

const HOUR = 3_600_000;
const APP_SECRET = 'live-app-secret-0123456789abcdef';

/** A fake graph.threads.net on loopback that records every call and answers as told. */
let mode: 'ok' | 'server-error' | 'graph-error' | 'debug-token-down' = 'ok';
const calls: { method: string; path: string; body: string }[] = [];
let fake: Server;
let fakeBase: string;

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

beforeAll(async () => {
  fake = createServer((request, response) => {
    void readBody(request).then((body) => {
      const url = new URL(request.url ?? '/', 'http://fake');
      calls.push({ method: request.method ?? '', path: url.pathname, body });
      if (mode === 'server-error') return response.writeHead(500).end('upstream trouble');
      if (mode === 'graph-error') {
        response.writeHead(400, { 'content-type': 'application/json' });
        return response.end(
          '{"error":{"message":"Invalid verification code format.","type":"OAuthException","code":100}}',
        );
      }
      if (url.pathname === '/v1.0/debug_token') {
        if (mode === 'debug-token-down') return response.writeHead(503).end('try later');
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(
          '{"data":{"user_id":"17841400000000077","scopes":["threads_basic","threads_keyword_search"],"expires_at":0}}',
        );
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      if (url.pathname === '/oauth/access_token')
        return response.end('{"access_token":"SHORT","user_id":17841400000000077}');
      if (url.pathname === '/access_token')
        return response.end('{"access_token":"LONG","token_type":"bearer","expires_in":5184000}');
      return response.end('{"id":"17841400000000077","username":"liveuser"}');
    });
  });
  fake.listen(0, '127.0.0.1');
  await once(fake, 'listening');
  fakeBase = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
});
afterAll(() => fake.close());
beforeEach(async () => {
  calls.length = 0;
  mode = 'ok';
  await resetDatabase(await testDatabase());
});

/** The scopes stored with the one token there is. */
async function storedScopes(): Promise<string[] | undefined> {
  const { db } = await testDatabase();
  return (await db.select({ scopes: threadsTokens.scopes }).from(threadsTokens))[0]?.scopes;
}

const userCount = async () => {
  const { db } = await testDatabase();
  return (await db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n;
};

describe('sign-in against a live Threads app (a fake Graph server over HTTP)', () => {
  const liveEnv = () => ({
    THREADS_APP_ID: '123456',
    THREADS_APP_SECRET: APP_SECRET,
    THREADS_GRAPH_BASE_URL: fakeBase,
  });

  test('speaks the documented protocol: form POST code exchange, th_exchange_token, /me', async () => {
    const { app, base } = await startApp(liveEnv());
    try {
      const response = await api(base, '/api/auth/callback', {
        method: 'POST',
        body: { code: 'CODE-1', redirect_uri: REDIRECT_URI },
      });
      expect(await response.json()).toEqual({
        success: true,
        user_id: '17841400000000077',
        username: 'liveuser',
      });
      expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
        'POST /oauth/access_token',
        'GET /access_token',
        'GET /v1.0/me',
        // Which permissions the person granted (section 1, token introspection), stored with the token.
        'GET /v1.0/debug_token',
      ]);
      expect(await storedScopes()).toEqual(['threads_basic', 'threads_keyword_search']);
      expect(Object.fromEntries(new URLSearchParams(calls[0]?.body))).toEqual({
        client_id: '123456',
        client_secret: APP_SECRET,
        grant_type: 'authorization_code',
        redirect_uri: REDIRECT_URI,
        code: 'CODE-1',
      });
    } finally {
      await app.close();
    }
  });

  test('a failed debug_token does not fail the sign-in: the token counts as threads_basic only', async () => {
    const { app, base } = await startApp(liveEnv());
    try {
      mode = 'debug-token-down';
      const response = await api(base, '/api/auth/callback', {
        method: 'POST',
        body: { code: 'CODE-2', redirect_uri: REDIRECT_URI },
      });
      expect(response.status).toBe(200);
      expect(calls.map((c) => c.path)).toContain('/v1.0/debug_token');
      expect(await storedScopes()).toEqual(['threads_basic']);
    } finally {
      await app.close();
    }
  });

  test.each([
    ['server-error', 502, 'Threads did not respond'],
    ['graph-error', 400, 'Threads did not accept this sign-in'],
  ] as const)(
    'Threads answering %s → %d with a clear detail, no user, no secret in the answer',
    async (failure, status, detail) => {
      mode = failure;
      const { app, base } = await startApp(liveEnv());
      try {
        const response = await api(base, '/api/auth/callback', {
          method: 'POST',
          body: { code: 'CODE-2', redirect_uri: REDIRECT_URI },
        });
        expect(response.status).toBe(status);
        const text = await response.text();
        expect(JSON.parse(text)).toEqual({ detail: expect.stringContaining(detail) });
        expect(text).not.toContain(APP_SECRET);
        expect(await userCount()).toBe(0);
      } finally {
        await app.close();
      }
    },
  );
});

test('refresh renews a token older than a day; a token Threads refuses marks the user "reconnect needed"', async () => {
  let now = Date.now();
  const { app, base } = await startApp({}, { simulatedClock: () => now });
  const { db } = await testDatabase();
  const ageToken = () => db.update(threadsTokens).set({ issuedAt: new Date(Date.now() - 25 * HOUR) });
  try {
    const cookie = await signIn(base, 'ivy');
    const [before] = await db.select().from(threadsTokens);

    now += 25 * HOUR;
    await ageToken();
    const renewed = await api(base, '/api/auth/refresh', { method: 'POST', cookie });
    expect(renewed.status).toBe(200);
    const [after] = await db.select().from(threadsTokens);
    expect(after?.ciphertext).not.toBe(before?.ciphertext);
    expect(after?.issuedAt.getTime()).toBeGreaterThan(Date.now() - HOUR);

    now += 61 * 24 * HOUR; // past the 60 days: Threads refuses the token
    await ageToken();
    const expired = await api(base, '/api/auth/refresh', { method: 'POST', cookie });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      detail: 'Your Threads connection has expired. Please sign in again.',
    });
    const [user] = await db.select().from(users).where(eq(users.threadsUsername, 'ivy'));
    expect(user?.reconnectNeeded).toBe(true);

    await signIn(base, 'ivy');
    const [reconnected] = await db.select().from(users).where(eq(users.threadsUsername, 'ivy'));
    expect(reconnected?.reconnectNeeded).toBe(false);
  } finally {
    await app.close();
  }
});
