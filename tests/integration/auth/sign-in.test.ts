import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CallbackResponseSchema, VerifyResponseSchema } from '../../../contract/auth.ts';
import { z } from '../../../contract/zod.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { api, authorizationCode, ORIGIN, REDIRECT_URI, sessionCookie, signIn, startApp } from './helpers.ts';

let app: FastifyInstance;
let base: string;
const count = async (table: string) => {
  const { db } = await testDatabase();
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sql.raw(table));
  return row?.n ?? 0;
};

beforeAll(async () => ({ app, base } = await startApp()));
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

describe('POST /api/auth/callback', () => {
  test('signs in: a 30-day HttpOnly Lax cookie, the Threads id as a string, the user and encrypted token stored', async () => {
    const response = await api(base, '/api/auth/callback', {
      method: 'POST',
      body: { code: await authorizationCode(base, 'alice'), redirect_uri: REDIRECT_URI },
    });
    expect(response.status).toBe(200);
    expect(CallbackResponseSchema.parse(await response.json())).toEqual({
      success: true,
      user_id: simulatedUserId('alice'),
      username: 'alice',
    });
    const setCookie = response.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(
      /^ct_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(setCookie).not.toMatch(/Domain=/i);

    const { db } = await testDatabase();
    const cookieValue = sessionCookie(response).split('=')[1] ?? '';
    const dump = JSON.stringify(
      await db.execute(
        sql`select (select json_agg(s) from sessions s) as s, (select json_agg(t) from threads_tokens t) as t`,
      ),
    );
    expect(dump).not.toContain(cookieValue); // only a keyed hash of the session id is stored
    expect(dump).not.toMatch(/SIM(LL|SL)/); // the Threads token only as ciphertext
    expect(dump).toContain('v1.');
    expect(await count('users')).toBe(1);
  });

  test(
    'a second sign-in updates the same user, starts a new session and ends the old one',
    { tags: ['engine'] },
    async () => {
      const first = await signIn(base, 'alice');
      const second = await signIn(base, 'alice', { cookie: first });
      expect(second).not.toBe(first);
      expect((await api(base, '/api/auth/verify', { cookie: first })).status).toBe(401);
      expect((await api(base, '/api/auth/verify', { cookie: second })).status).toBe(200);
      expect(await count('users')).toBe(1);
      expect(await count('sessions')).toBe(1);
    },
  );

  test(
    'a replayed code is refused, also when sent 10 times at once: exactly one session',
    { tags: ['engine'] },
    async () => {
      const code = await authorizationCode(base, 'bob');
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          api(base, '/api/auth/callback', { method: 'POST', body: { code, redirect_uri: REDIRECT_URI } }),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(400)]);
      const refused = responses.find((r) => r.status === 400);
      expect(await refused?.json()).toEqual({
        detail: expect.stringContaining('Threads did not accept this sign-in'),
      });
      expect(await count('sessions')).toBe(1);
    },
  );

  test.each([
    [{ code: 'x', redirect_uri: REDIRECT_URI, admin: true }, 'Unknown field: admin.'],
    [{ redirect_uri: REDIRECT_URI }, 'code:'],
    [{ code: '', redirect_uri: REDIRECT_URI }, 'The authorization code is missing.'],
    [
      { code: 'x', redirect_uri: 'https://evil.example/auth/callback' },
      "redirect_uri is not this site's sign-in callback",
    ],
    [['not', 'an', 'object'], 'The request body must be a JSON object.'],
  ])('bad input %o → 400 with a readable detail, nothing stored', async (body, detail) => {
    const response = await api(base, '/api/auth/callback', { method: 'POST', body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain(detail);
    expect(await count('users')).toBe(0);
  });
});

describe('verify, refresh and logout', () => {
  test('verify answers the user and never a token; signed out it is 401', async () => {
    const cookie = await signIn(base, 'carol');
    const verified = await api(base, '/api/auth/verify', { cookie });
    const body = z.parse(z.strictObject(VerifyResponseSchema.shape), await verified.json());
    expect(body).toEqual({ authenticated: true, user_id: simulatedUserId('carol'), username: 'carol' });
    expect(verified.headers.get('cache-control')).toBe('no-store');
    const anonymous = await api(base, '/api/auth/verify');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: 'You are not signed in.' });
  });

  test('logout ends the session on the server and clears the cookie; the old cookie is dead', async () => {
    const cookie = await signIn(base, 'dave');
    const response = await api(base, '/api/auth/logout', { method: 'POST', cookie });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().join()).toMatch(/ct_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await api(base, '/api/auth/verify', { cookie })).status).toBe(401);
    expect(await count('sessions')).toBe(0);
  });

  test('refresh answers the user while the token is fresh; signed out it is 401', async () => {
    const cookie = await signIn(base, 'erin');
    const response = await api(base, '/api/auth/refresh', { method: 'POST', cookie });
    expect(await response.json()).toEqual({ user_id: simulatedUserId('erin'), username: 'erin' });
    expect((await api(base, '/api/auth/refresh', { method: 'POST' })).status).toBe(401);
  });
});

describe('cross-site requests (CSRF)', () => {
  const unsafeRoutes = ['/api/auth/callback', '/api/auth/logout', '/api/auth/refresh'];
  const foreign: [string, Record<string, string>][] = [
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['neither Origin nor Sec-Fetch-Site', { origin: '' }],
  ];
  for (const route of unsafeRoutes) {
    test.each(foreign)(`${route} with %s → 403 and nothing changes`, async (_name, headers) => {
      const cookie = await signIn(base, 'frank');
      const cleaned = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''));
      const response = await fetch(`${base}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...cleaned },
        body: JSON.stringify({ code: 'x', redirect_uri: REDIRECT_URI }),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        detail: expect.stringContaining('must come from the Curated Threads site'),
      });
      expect((await api(base, '/api/auth/verify', { cookie })).status).toBe(200);
    });
  }

  test('a same-origin fetch passes, by Sec-Fetch-Site or by Origin', async () => {
    const cookie = await signIn(base, 'gina');
    const bySecFetch = await fetch(`${base}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(bySecFetch.status).toBe(200);
    expect(
      (await api(base, '/api/auth/logout', { method: 'POST', headers: { origin: ORIGIN } })).status,
    ).toBe(200);
  });
});

test('with ALLOWED_THREADS_USERNAMES, anyone else gets the access-denied 403 and no account', async () => {
  const restricted = await startApp({ ALLOWED_THREADS_USERNAMES: 'bob' });
  try {
    const response = await api(restricted.base, '/api/auth/callback', {
      method: 'POST',
      body: { code: await authorizationCode(restricted.base, 'alice'), redirect_uri: REDIRECT_URI },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ detail: TEXTS.accessDenied });
    expect(await count('users')).toBe(0);
    await signIn(restricted.base, 'bob');
    expect(await count('users')).toBe(1);
  } finally {
    await restricted.app.close();
  }
});

test('over https the cookie is __Host- prefixed and Secure', async () => {
  const secure = await startApp({ PUBLIC_URL: 'https://curated.example' });
  try {
    const redirect = 'https://curated.example/auth/callback';
    const form = new URLSearchParams({
      client_id: '100000000000001',
      redirect_uri: redirect,
      scope: 'threads_basic',
      response_type: 'code',
      state: 's',
      username: 'hana',
      decision: 'authorize',
    });
    const consent = await fetch(`${secure.base}/simulated-threads/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const signedIn = await fetch(`${secure.base}/api/auth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://curated.example' },
      body: JSON.stringify({ code, redirect_uri: redirect }),
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().join()).toMatch(
      /^__Host-ct_session=[^;]+; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  } finally {
    await secure.app.close();
  }
});
