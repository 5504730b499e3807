import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { signRequest } from '../../../server/threads/signed-request.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { api, ORIGIN, signIn, startApp } from './helpers.ts';

let app: FastifyInstance;
let base: string;
beforeAll(async () => ({ app, base } = await startApp()));
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

const signed = (username: string, extra: Record<string, unknown> = {}, secret = SIMULATED_APP.secret) =>
  signRequest(
    {
      algorithm: 'HMAC-SHA256',
      user_id: simulatedUserId(username),
      issued_at: Math.floor(Date.now() / 1000),
      ...extra,
    },
    secret,
  );

/** Posts like Meta does: a form field, from another server (no Origin, no cookies). */
const metaPost = (path: string, signedRequest: string) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ signed_request: signedRequest }),
  });

async function rows(table: string): Promise<number> {
  const { db } = await testDatabase();
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sql.raw(table));
  return row?.n ?? 0;
}

/** A member with a session, a stored token and a profile. */
async function member(username: string): Promise<string> {
  const cookie = await signIn(base, username);
  await api(base, '/api/user/request-invite', { method: 'POST', cookie });
  return cookie;
}

describe('POST /api/auth/data-deletion', () => {
  test("deletes the user's account, sessions, token and profile in one go, and answers {url, confirmation_code}", async () => {
    const cookie = await member('dana');
    const response = await metaPost('/api/auth/data-deletion', signed('dana'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { url: string; confirmation_code: string };
    expect(body.confirmation_code).toMatch(/^[a-f0-9]{32}$/);
    expect(body.url).toBe(`${ORIGIN}/data-deletion-status?code=${body.confirmation_code}`);
    for (const table of ['users', 'sessions', 'threads_tokens', 'profiles'])
      expect(await rows(table), table).toBe(0);
    expect((await api(base, '/api/auth/verify', { cookie })).status).toBe(401);

    const status = await api(base, `/api/auth/data-deletion-status/${body.confirmation_code}`);
    expect(await status.json()).toEqual({
      status: 'completed',
      message: expect.stringContaining('deleted'),
      deleted: true,
    });

    // Idempotent: Meta may call again; the same confirmation comes back and nothing else happens.
    const again = (await (await metaPost('/api/auth/data-deletion', signed('dana'))).json()) as {
      confirmation_code: string;
    };
    expect(again.confirmation_code).toBe(body.confirmation_code);
    expect(await rows('deletion_requests')).toBe(1);
  });

  test('accepts the signed_request as JSON too', async () => {
    await member('eve');
    const response = await fetch(`${base}/api/auth/data-deletion`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signed_request: signed('eve') }),
    });
    expect(response.status).toBe(200);
    expect(await rows('users')).toBe(0);
  });

  test.each([
    [
      'signed with another secret',
      () => signed('finn', {}, 'not-the-app-secret'),
      'The signature does not match.',
    ],
    [
      'another algorithm',
      () => signed('finn', { algorithm: 'HMAC-SHA1' }),
      'The algorithm is not HMAC-SHA256.',
    ],
    ['garbage', () => 'garbage', 'The signed_request has no signature and payload.'],
    [
      'without issued_at',
      () => signed('finn', { issued_at: undefined }),
      'The payload has no issued_at time.',
    ],
    [
      'issued over a day ago',
      () => signed('finn', { issued_at: Math.floor(Date.now() / 1000) - 86_401 }),
      'The signed_request is too old.',
    ],
  ])('a forged request (%s) is refused with 400 and deletes nothing', async (_name, make, reason) => {
    await member('finn');
    const response = await metaPost('/api/auth/data-deletion', make());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: `Invalid signed_request: ${reason}` });
    expect(await rows('users')).toBe(1);
    expect(await rows('deletion_requests')).toBe(0);
  });

  test('a 17-digit user id sent as a JSON number reaches its user, digit for digit, on both callbacks', async () => {
    // An odd id above 2^53: JSON.parse alone would round it to a neighbour's id (jude's is odd).
    const id = simulatedUserId('jude');
    expect(Number(id) > 2 ** 53 && String(Number(id)) !== id).toBe(true);
    const text = `{"algorithm":"HMAC-SHA256","user_id":${id},"issued_at":${Math.floor(Date.now() / 1000)}}`;
    const cookie = await member('jude');
    const deauthorized = await metaPost('/api/auth/deauthorize', signRequest(text, SIMULATED_APP.secret));
    expect(deauthorized.status).toBe(200);
    expect((await api(base, '/api/auth/verify', { cookie })).status).toBe(401);
    const deleted = await metaPost('/api/auth/data-deletion', signRequest(text, SIMULATED_APP.secret));
    expect(deleted.status).toBe(200);
    expect([await rows('users'), await rows('deletion_requests')]).toEqual([0, 1]);
  });

  test('a user id as a number with a sign, a fraction or more than 20 digits is refused with 400', async () => {
    await member('finn');
    for (const userId of ['-1', '1.5', '1e21', '123456789012345678901']) {
      const text = `{"algorithm":"HMAC-SHA256","user_id":${userId},"issued_at":${Math.floor(Date.now() / 1000)}}`;
      const response = await metaPost('/api/auth/data-deletion', signRequest(text, SIMULATED_APP.secret));
      expect(response.status, userId).toBe(400);
      expect(await response.json()).toEqual({
        detail: 'Invalid signed_request: The user id must be a string or a whole number of up to 20 digits.',
      });
    }
    expect([await rows('users'), await rows('deletion_requests')]).toEqual([1, 0]);
  });

  test('a missing field is a 400; the status of an unknown or malformed code is a 404 that reveals nothing', async () => {
    const missing = await fetch(`${base}/api/auth/data-deletion`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'other=1',
    });
    expect(await missing.json()).toEqual({
      detail: 'signed_request: a signed request from Meta is required.',
    });
    for (const code of ['0123456789abcdef0123456789abcdef', 'x', "' or 1=1 --"]) {
      const response = await api(base, `/api/auth/data-deletion-status/${encodeURIComponent(code)}`);
      expect(response.status).toBe(404);
    }
  });
});

test('POST /api/auth/deauthorize ends every session and drops the token; the account stays, reconnect needed', async () => {
  const cookie = await member('gus');
  expect((await metaPost('/api/auth/deauthorize', signed('gus'))).status).toBe(200);
  expect((await api(base, '/api/auth/verify', { cookie })).status).toBe(401);
  expect([
    await rows('sessions'),
    await rows('threads_tokens'),
    await rows('users'),
    await rows('profiles'),
  ]).toEqual([0, 0, 1, 1]);
  expect((await metaPost('/api/auth/deauthorize', signed('nobody_known'))).status).toBe(200);
});

test("the simulated provider's 'Remove app' sends both signed callbacks over HTTP and links to the status", async () => {
  await member('hugo');
  const response = await fetch(`${base}/simulated-threads/settings/apps/remove`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'hugo' }),
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  const link = /href="([^"]+data-deletion-status\?code=[a-f0-9]{32})"/.exec(html)?.[1];
  expect(link).toBeDefined();
  expect(await rows('users')).toBe(0);
});
