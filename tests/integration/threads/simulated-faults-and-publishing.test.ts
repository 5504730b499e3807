import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ThreadsApiError } from '../../../server/threads/gateway.ts';
import { createThreadsClient } from '../../../server/threads/live-client.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { buildTestApp } from '../helpers/app.ts';

// The strict simulator's test controls, containers and publishing limit, through the live client
// over real HTTP (threads-api.md sections 7 and 10).
const HOUR = 3_600_000;
const redirectUri = `${TEST_SITE.publicUrl}/auth/callback`;
let now = Date.parse('2026-11-21T10:00:00Z');
let app: FastifyInstance;
let base: string;
let client: ReturnType<typeof createThreadsClient>;

beforeAll(async () => {
  app = await buildTestApp(
    { PUBLIC_URL: TEST_SITE.publicUrl, SIMULATED_CONTROLS: 'true' },
    { simulatedClock: () => now },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/simulated-threads`;
  client = createThreadsClient({
    graphBaseUrl: base,
    appId: SIMULATED_APP.id,
    appSecret: SIMULATED_APP.secret,
    retry: { attempts: 3, baseDelayMs: 2 },
  });
});
afterAll(() => app.close());
beforeEach(async () => {
  await control('DELETE', '/faults');
  await control('DELETE', '/containers');
});

async function control(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
  return fetch(`${base}/_controls${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

async function fault(body: Record<string, unknown>): Promise<void> {
  expect((await control('POST', '/faults', body)).status).toBe(204);
}

/** A long-lived token for `username` granted exactly `scopes` on the consent page. */
async function tokenFor(username: string, scopes: string[] = ['threads_content_publish']): Promise<string> {
  const requested = ['threads_basic', 'threads_content_publish'];
  const response = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: SIMULATED_APP.id,
      redirect_uri: redirectUri,
      scope: requested.join(','),
      response_type: 'code',
      state: 'x',
      username,
      decision: 'authorize',
      ...Object.fromEntries(scopes.map((scope) => [`grant_${scope}`, 'on'])),
    }),
    redirect: 'manual',
  });
  const code = new URL(response.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const { accessToken } = await client.exchangeCode(code, redirectUri);
  return (await client.exchangeForLongLived(accessToken)).accessToken;
}

describe('fault control (threads-api.md section 7, errors)', () => {
  test('is not mounted without SIMULATED_CONTROLS', async () => {
    const plain = await buildTestApp({ PUBLIC_URL: TEST_SITE.publicUrl });
    try {
      const response = await plain.inject({
        method: 'POST',
        url: '/simulated-threads/_controls/faults',
        payload: { path: '/v1.0/me', code: 4 },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  test('a bad control body is a readable 400', async () => {
    const response = await control('POST', '/faults', { path: 'no-slash', code: 4 });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: expect.stringContaining('path') });
  });

  test('answers Graph’s envelope with the code, its wording and a fresh fbtrace_id each time', async () => {
    const token = await tokenFor('envelope');
    await fault({ path: '/v1.0/me', code: 17, times: 2 });
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/v1.0/me?access_token=${encodeURIComponent(token)}`);
      expect(response.status).toBe(400);
      answers.push(((await response.json()) as { error: Record<string, unknown> }).error);
    }
    expect(answers[0]).toEqual({
      message: '(#17) User request limit reached',
      type: 'OAuthException',
      code: 17,
      fbtrace_id: expect.stringMatching(/^A[\w-]{22}$/),
    });
    expect(answers[1]?.fbtrace_id).not.toBe(answers[0]?.fbtrace_id);
    // Used up: the third call goes through.
    expect(await client.me(token)).toEqual({ id: expect.any(String), username: 'envelope' });
  });

  test.each([4, 17, 32, 613])(
    'code %i is "throttled" once the client’s attempts are spent, with code and trace id',
    async (code) => {
      const token = await tokenFor(`throttled${code}`);
      await fault({ path: '/v1.0/me', code, times: 3 });
      const error = (await client.me(token).catch((e: unknown) => e)) as ThreadsApiError;
      expect(error).toBeInstanceOf(ThreadsApiError);
      expect(error).toMatchObject({ kind: 'throttled', code, temporary: true });
      expect(error.fbtraceId).toMatch(/^A[\w-]{22}$/);
      expect(await client.me(token)).toMatchObject({ username: `throttled${code}` });
    },
  );

  test('the client recovers from a transient code 2 within its attempts', async () => {
    const token = await tokenFor('transient');
    await fault({ path: '/v1.0/me', code: 2, times: 2 });
    expect(await client.me(token)).toMatchObject({ username: 'transient' });
    await fault({ path: '/v1.0/', code: 1, times: 3 });
    await expect(client.me(token)).rejects.toMatchObject({ kind: 'unavailable', code: 1, status: 500 });
  });

  test('a method filter and a path prefix choose the calls; DELETE clears every fault', async () => {
    const token = await tokenFor('filtered');
    await fault({ path: '/v1.0/me/threads', method: 'POST', code: 4, times: 10 });
    // GET /me/threads (the own posts list) is not faulted, POST (a new container) is.
    expect((await client.ownThreads(token)).posts).toBeInstanceOf(Array);
    await expect(client.createTextContainer(token, { text: 'hello' })).rejects.toMatchObject({
      kind: 'throttled',
    });
    expect((await control('DELETE', '/faults')).status).toBe(204);
    expect(await client.createTextContainer(token, { text: 'hello' })).toMatch(/^\d+$/);
  });

  test('a publish is never retried blindly: one faulted answer fails it, the container stays FINISHED', async () => {
    const token = await tokenFor('publishonce');
    const creationId = await client.createTextContainer(token, { text: 'Once only' });
    await fault({ path: '/v1.0/me/threads_publish', code: 2, times: 1 });
    await expect(client.publishContainer(token, creationId)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await client.containerStatus(token, creationId)).toEqual({
      status: 'FINISHED',
      errorMessage: null,
    });
    await client.publishContainer(token, creationId);
    expect((await client.containerStatus(token, creationId)).status).toBe('PUBLISHED');
  });

  test('a lost answer: the post is published, the caller hears an error', async () => {
    const token = await tokenFor('lostanswer');
    const creationId = await client.createTextContainer(token, { text: 'Lost answer' });
    await fault({ path: '/v1.0/me/threads_publish', code: 2, lose_answer: true });
    await expect(client.publishContainer(token, creationId)).rejects.toMatchObject({ kind: 'unavailable' });
    expect((await client.containerStatus(token, creationId)).status).toBe('PUBLISHED');
    const [latest] = (await client.ownThreads(token)).posts;
    expect(latest).toMatchObject({ text: 'Lost answer', username: 'lostanswer' });
  });
});

describe('containers (threads-api.md section 10, publishing)', () => {
  test('FINISHED at once for text, PUBLISHED after publishing, and a second publish is refused', async () => {
    const token = await tokenFor('lifecycle');
    const creationId = await client.createTextContainer(token, { text: 'A text post' });
    expect(await client.containerStatus(token, creationId)).toEqual({
      status: 'FINISHED',
      errorMessage: null,
    });
    const published = await client.publishContainer(token, creationId);
    expect(published.permalink).toMatch(/^https:\/\/www\.threads\.com\/@lifecycle\/post\/SIM/);
    expect((await client.containerStatus(token, creationId)).status).toBe('PUBLISHED');
    await expect(client.publishContainer(token, creationId)).rejects.toMatchObject({
      kind: 'rejected',
      code: 24,
      subcode: 4279009,
    });
  });

  test('a slow container is IN_PROGRESS and cannot be published until it finishes', async () => {
    const token = await tokenFor('slow');
    expect((await control('POST', '/containers', { outcome: 'slow', processing_seconds: 90 })).status).toBe(
      204,
    );
    const creationId = await client.createTextContainer(token, { text: 'Slow one' });
    expect((await client.containerStatus(token, creationId)).status).toBe('IN_PROGRESS');
    await expect(client.publishContainer(token, creationId)).rejects.toMatchObject({
      code: 24,
      subcode: 4279009,
    });
    now += 91_000;
    expect((await client.containerStatus(token, creationId)).status).toBe('FINISHED');
    // The control covered one container: the next one finishes at once.
    const next = await client.createTextContainer(token, { text: 'Quick one' });
    expect((await client.containerStatus(token, next)).status).toBe('FINISHED');
  });

  test('a container not published within 24 hours is EXPIRED and cannot be published', async () => {
    const token = await tokenFor('expiry');
    const creationId = await client.createTextContainer(token, { text: 'Too late' });
    now += 24 * HOUR;
    expect((await client.containerStatus(token, creationId)).status).toBe('EXPIRED');
    await expect(client.publishContainer(token, creationId)).rejects.toMatchObject({ code: 24 });
  });

  test('a failing container ends in ERROR with its error_message', async () => {
    const token = await tokenFor('failing');
    await control('POST', '/containers', { outcome: 'error', error_message: 'The text was not accepted.' });
    const creationId = await client.createTextContainer(token, { text: 'Broken' });
    expect(await client.containerStatus(token, creationId)).toEqual({
      status: 'ERROR',
      errorMessage: 'The text was not accepted.',
    });
    await expect(client.publishContainer(token, creationId)).rejects.toMatchObject({ code: 24 });
  });

  test('another user’s container does not exist for this token', async () => {
    const mine = await tokenFor('owner');
    const theirs = await tokenFor('stranger');
    const creationId = await client.createTextContainer(mine, { text: 'Mine' });
    await expect(client.containerStatus(theirs, creationId)).rejects.toMatchObject({ subcode: 33 });
    await expect(client.publishContainer(theirs, creationId)).rejects.toMatchObject({ code: 24 });
  });

  test('publishing needs threads_content_publish (Graph code 10)', async () => {
    const token = await tokenFor('nopublish', []);
    await expect(client.createTextContainer(token, { text: 'x' })).rejects.toMatchObject({
      kind: 'missing_permission',
    });
    await expect(client.publishingQuota(token)).rejects.toMatchObject({ kind: 'missing_permission' });
  });
});

describe('publishing limit (threads-api.md section 7)', () => {
  test('250 posts in a rolling 24 hours; the 251st is refused until the oldest ages out', async () => {
    const token = await tokenFor('prolific');
    expect(await client.publishingQuota(token)).toEqual({ used: 0, limit: 250 });
    const response = await fetch(
      `${base}/v1.0/me/threads_publishing_limit?fields=quota_usage,config&access_token=${encodeURIComponent(token)}`,
    );
    expect(await response.json()).toEqual({
      data: [{ quota_usage: 0, config: { quota_total: 250, quota_duration: 86400 } }],
    });
    const first = now;
    for (let i = 0; i < 250; i++) {
      const creationId = await client.createTextContainer(token, { text: `Post ${i}` });
      await client.publishContainer(token, creationId);
      if (i === 0) now += HOUR; // the first post is an hour older than the rest
    }
    expect(await client.publishingQuota(token)).toEqual({ used: 250, limit: 250 });
    const extra = await client.createTextContainer(token, { text: 'One too many' });
    await expect(client.publishContainer(token, extra)).rejects.toMatchObject({
      kind: 'throttled',
      code: 4,
    });
    // A day after the first post it leaves the window: one post fits again, and only one.
    now = first + 24 * HOUR + 1;
    expect(await client.publishingQuota(token)).toEqual({ used: 249, limit: 250 });
    await client.publishContainer(token, extra);
    const another = await client.createTextContainer(token, { text: 'Still too many' });
    await expect(client.publishContainer(token, another)).rejects.toMatchObject({ code: 4 });
  });
});
