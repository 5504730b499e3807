import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ThreadsApiError } from '../../../server/threads/gateway.ts';
import { createThreadsClient } from '../../../server/threads/live-client.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { authorizePageCsp } from '../../../server/simulator/authorize-page.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { buildTestApp } from '../helpers/app.ts';

const HOUR = 3_600_000;
const redirectUri = `${TEST_SITE.publicUrl}/auth/callback`;
let now = Date.parse('2026-11-21T10:00:00Z');
let app: FastifyInstance;
let base: string;
let client: ReturnType<typeof createThreadsClient>;

beforeAll(async () => {
  app = await buildTestApp({ PUBLIC_URL: TEST_SITE.publicUrl }, { simulatedClock: () => now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/simulated-threads`;
  client = createThreadsClient({
    graphBaseUrl: base,
    appId: SIMULATED_APP.id,
    appSecret: SIMULATED_APP.secret,
  });
});
afterAll(() => app.close());

const authorizeParams = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    client_id: SIMULATED_APP.id,
    redirect_uri: redirectUri,
    scope: 'threads_basic,threads_content_publish',
    response_type: 'code',
    state: '0123456789abcdef0123456789abcdef',
    ...extra,
  });

/** Submits the consent form as a browser would, and returns where Threads redirects to. */
async function consent(fields: Record<string, string>): Promise<URL> {
  const response = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: authorizeParams(fields),
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '');
}

async function codeFor(username: string): Promise<string> {
  return (await consent({ username, decision: 'authorize' })).searchParams.get('code') ?? '';
}

describe('authorize page', () => {
  test("shows the 'Threads username' field with 'Authorize' and 'Cancel', under its own strict CSP", async () => {
    const response = await fetch(`${base}/oauth/authorize?${authorizeParams()}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<label for="username">Threads username</label>');
    expect(html).toMatch(/>Authorize<\/button>.*>Cancel<\/button>/s);
    const csp = response.headers.get('content-security-policy');
    expect(csp).toBe(authorizePageCsp([redirectUri, `${TEST_SITE.publicUrl}/callback`]));
    // The consent answer redirects to the pages' callback, which form-action must allow.
    expect(csp).toContain(`form-action 'self' ${TEST_SITE.publicUrl};`);
  });

  test.each([
    [{ redirect_uri: 'https://evil.example/auth/callback' }, 'redirect_uri is not one of'],
    [{ redirect_uri: `${redirectUri}/` }, 'redirect_uri is not one of'],
    [{ client_id: '999' }, 'not a registered Threads app'],
    [{ response_type: 'token' }, 'response_type must be code'],
  ])('refuses an unregistered app or redirect (exact match): %o', async (extra, message) => {
    const response = await fetch(`${base}/oauth/authorize?${authorizeParams(extra)}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
  });

  test('Authorize redirects to the callback with a code and the same state; Cancel with access_denied', async () => {
    const granted = await consent({ username: 'Alice', decision: 'authorize' });
    expect(`${granted.origin}${granted.pathname}`).toBe(redirectUri);
    expect(granted.searchParams.get('state')).toBe('0123456789abcdef0123456789abcdef');
    expect(granted.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(granted.hash).toBe('#_');

    const denied = await consent({ username: 'alice', decision: 'cancel' });
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('code')).toBeNull();
    expect(denied.searchParams.get('state')).toBe('0123456789abcdef0123456789abcdef');
  });

  test('an impossible username is sent back to the form with a message', async () => {
    const response = await fetch(`${base}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: authorizeParams({ username: 'no spaces<script>', decision: 'authorize' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('<script>');
  });
});

describe('the live client against the simulated provider, over HTTP', () => {
  test('code → short-lived → long-lived token → /me; the user id survives as a string beyond 2^53', async () => {
    const { accessToken, userId } = await client.exchangeCode(await codeFor('alice'), redirectUri);
    expect(userId).toBe(simulatedUserId('alice'));
    expect(userId).toMatch(/^\d{17}$/);
    expect(String(Number(userId))).not.toBe(userId); // a number would have lost digits
    const long = await client.exchangeForLongLived(accessToken);
    expect(long.expiresInSeconds).toBe(60 * 24 * 3600);
    expect(await client.me(long.accessToken)).toEqual({ id: userId, username: 'alice' });
  });

  test('a code works once, for its own redirect URI, within one hour', async () => {
    const code = await codeFor('bob');
    await client.exchangeCode(code, redirectUri);
    await expect(client.exchangeCode(code, redirectUri)).rejects.toThrow('already used');

    await expect(
      client.exchangeCode(await codeFor('bob'), `${TEST_SITE.publicUrl}/callback`),
    ).rejects.toBeInstanceOf(ThreadsApiError);

    const late = await codeFor('bob');
    now += HOUR + 1000;
    await expect(client.exchangeCode(late, redirectUri)).rejects.toMatchObject({ kind: 'rejected' });
  });

  test('a long-lived token refreshes only once a day old; the old one then stops working', async () => {
    const { accessToken } = await client.exchangeCode(await codeFor('carol'), redirectUri);
    const long = await client.exchangeForLongLived(accessToken);
    await expect(client.refreshToken(long.accessToken)).rejects.toThrow('24 hours old');
    now += 25 * HOUR;
    const renewed = await client.refreshToken(long.accessToken);
    expect(await client.me(renewed.accessToken)).toMatchObject({ username: 'carol' });
    await expect(client.me(long.accessToken)).rejects.toMatchObject({ kind: 'invalid_token' });
    now += 61 * 24 * HOUR;
    await expect(client.refreshToken(renewed.accessToken)).rejects.toMatchObject({ kind: 'invalid_token' });
  });

  test('a wrong app secret is refused with a readable error that carries no secret', async () => {
    const wrong = createThreadsClient({
      graphBaseUrl: base,
      appId: SIMULATED_APP.id,
      appSecret: 'wrong-secret',
    });
    const error = await wrong.exchangeCode(await codeFor('dave'), redirectUri).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThreadsApiError);
    expect((error as Error).message).toBe(
      'Threads refused the request: Error validating client secret. (code 1)',
    );
  });

  test('an unreachable Threads is a clear "unavailable" error', async () => {
    const offline = createThreadsClient({
      graphBaseUrl: 'http://127.0.0.1:9',
      appId: '1',
      appSecret: 'x',
      retry: { attempts: 2, baseDelayMs: 1 },
    });
    await expect(offline.me('token')).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'Threads is unreachable.',
    });
  });
});

test('with a real Threads app configured, the simulated provider is not mounted', async () => {
  const live = await buildTestApp({ THREADS_APP_ID: '123', THREADS_APP_SECRET: 'a'.repeat(32) });
  try {
    const response = await live.inject({ url: `/simulated-threads/oauth/authorize?${authorizeParams()}` });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Threads username');
  } finally {
    await live.close();
  }
});
