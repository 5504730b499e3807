import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ThreadsApiError, type ThreadsErrorKind } from '../../../../server/threads/gateway.ts';
import { createThreadsClient } from '../../../../server/threads/live-client.ts';
import {
  exchangeFor,
  expectRequest,
  loadFixtures,
  startFixtureServer,
  type Exchange,
} from './fixture-server.ts';
import { TEST_THREADS_RETRY } from '../../helpers/app.ts';

// The live client against Meta's documented request and response shapes (threads-api.md sections
// 1-7), written as fixtures of our own; the fixture server asserts each request the client sends.
const oauth = loadFixtures('oauth.json');
const media = loadFixtures('media.json');
const publishing = loadFixtures('publishing.json');
const errors = JSON.parse(readFileSync(new URL('./fixtures/errors.json', import.meta.url), 'utf8')) as {
  section: string;
  cases: { kind: ThreadsErrorKind; status: number; error: Record<string, unknown> }[];
};

const LONG_LIVED = 'THAAfixtureLongLivedToken02';
let server: Awaited<ReturnType<typeof startFixtureServer>>;
let client: ReturnType<typeof createThreadsClient>;

beforeAll(async () => {
  server = await startFixtureServer();
  client = createThreadsClient({
    graphBaseUrl: server.base,
    appId: '1029384756102938',
    appSecret: 'f1xture-app-secret-0000',
    // Retried as the server retries, without its seconds of waiting (the waits are unit-tested).
    retry: TEST_THREADS_RETRY,
  });
});
afterAll(() => server.close());

function fixture(set: Record<string, Exchange>, name: string): Exchange {
  const exchange = set[name];
  if (!exchange) throw new Error(`no fixture ${name}`);
  return exchange;
}

/** Serves `exchange`, runs the call, and asserts every request it made is the documented one. */
async function run<T>(exchange: Exchange, call: () => Promise<T>): Promise<T> {
  const received = server.serve(exchange);
  try {
    return await call();
  } finally {
    expect(received.length, `${exchange.section}: requests made`).toBeGreaterThan(0);
    for (const request of received) expectRequest(request, exchange);
  }
}

/** The ThreadsApiError a call fails with (the test fails when it succeeds or fails otherwise). */
async function refusal(promise: Promise<unknown>): Promise<ThreadsApiError> {
  const error: unknown = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ThreadsApiError);
  return error as ThreadsApiError;
}

describe('section 1: sign-in, token exchange and refresh', () => {
  test('code exchange: a form POST; the bare 17-digit user_id is kept exactly', async () => {
    const result = await run(fixture(oauth, 'codeExchange'), () =>
      client.exchangeCode('AQDfixtureAuthCode_01', 'https://curated.example/auth/callback'),
    );
    // 17841400000000123 is beyond 2^53: JSON.parse would make it ...120.
    expect(result).toEqual({ accessToken: 'THAAfixtureShortLivedToken01', userId: '17841400000000123' });
  });

  test('long-lived exchange: GET /access_token with th_exchange_token', async () => {
    const grant = await run(fixture(oauth, 'longLivedExchange'), () =>
      client.exchangeForLongLived('THAAfixtureShortLivedToken01'),
    );
    expect(grant).toEqual({ accessToken: LONG_LIVED, expiresInSeconds: 5183944 });
  });

  test('refresh: GET /refresh_access_token with th_refresh_token', async () => {
    const grant = await run(fixture(oauth, 'refresh'), () => client.refreshToken(LONG_LIVED));
    expect(grant).toEqual({ accessToken: 'THAAfixtureLongLivedToken03', expiresInSeconds: 5184000 });
  });

  test('debug_token: scopes, expiry and the 17-digit user id', async () => {
    const info = await run(fixture(oauth, 'debugToken'), () => client.debugToken(LONG_LIVED));
    expect(info).toEqual({
      userId: '17841400000000123',
      scopes: ['threads_basic', 'threads_keyword_search'],
      expiresAt: new Date(1800184000 * 1000),
    });
  });
});

describe('section 2: the profile and single posts', () => {
  test('/me: the id stays a string', async () => {
    const account = await run(fixture(oauth, 'me'), () => client.me(LONG_LIVED));
    expect(account).toEqual({ id: '17841400000000123', username: 'grid.and.glyph' });
  });

  test('a single media object', async () => {
    const post = await run(fixture(media, 'singlePost'), () => client.post(LONG_LIVED, '17900000000000101'));
    expect(post).toMatchObject({
      id: '17900000000000101',
      username: 'grid.and.glyph',
      mediaType: 'TEXT_POST',
      mediaUrl: null,
      permalink: 'https://www.threads.com/@grid.and.glyph/post/DFixtAAA001',
      shortcode: 'DFixtAAA001',
      timestamp: '2026-11-19T08:15:00+0000',
    });
  });

  test('code 100 / subcode 33 reads as null from post(), not as an error', async () => {
    expect(
      await run(fixture(media, 'postNotReadable'), () => client.post(LONG_LIVED, '17900000000000199')),
    ).toBe(null);
  });
});

describe('section 3: keyword search with paging', () => {
  test('a first page: since, limit, a repost and a malformed item skipped, video and carousel pictures', async () => {
    const page = await run(fixture(media, 'searchFirstPage'), () =>
      client.keywordSearch(LONG_LIVED, {
        q: 'kerning',
        mode: 'KEYWORD',
        type: 'RECENT',
        limit: 25,
        since: new Date(1795000000 * 1000),
      }),
    );
    expect(page.next).toBe('QVFIUfixtureAfter1');
    expect(page.skipped).toBe(2);
    expect(page.posts.map((post) => [post.id, post.mediaType, post.mediaUrl])).toEqual([
      ['17900000000000101', 'TEXT_POST', null],
      ['17900000000000102', 'IMAGE', 'https://scontent.cdninstagram.example/v/kerning-sheet.jpg?oe=6740AB12'],
      // A video shows its thumbnail, never the video file.
      [
        '17900000000000103',
        'VIDEO',
        'https://scontent.cdninstagram.example/v/kerning-demo-thumb.jpg?oe=6740AB12',
      ],
      // A carousel shows its first child's picture (here a video child's thumbnail).
      [
        '17900000000000104',
        'CAROUSEL_ALBUM',
        'https://scontent.cdninstagram.example/v/pair-av.jpg?oe=6740AB12',
      ],
    ]);
    expect(page.posts[0]?.topicTag).toBe('Typography');
  });

  test('the page after a cursor, tag mode, limit capped at 100; no next link is the last page', async () => {
    const page = await run(fixture(media, 'searchLastPage'), () =>
      client.keywordSearch(LONG_LIVED, {
        q: 'Typography',
        mode: 'TAG',
        type: 'TOP',
        limit: 500,
        after: 'QVFIUfixtureAfter1',
      }),
    );
    expect(page).toMatchObject({ next: null, skipped: 0 });
    // Search has been seen to say TEXT where media objects say TEXT_POST: an open set.
    expect(page.posts.map((post) => [post.id, post.mediaType, post.permalink])).toEqual([
      ['17900000000000111', 'TEXT', 'https://www.threads.com/t/DFixtAAA011'],
    ]);
  });
});

describe('section 4: insights', () => {
  test('likes and replies from data[].values[0].value', async () => {
    const insights = await run(fixture(media, 'insights'), () =>
      client.insights(LONG_LIVED, '17900000000000101'),
    );
    expect(insights).toEqual({ likes: 312, replies: 27 });
  });
});

describe('section 7 and 10: publishing', () => {
  test('a text container quoting a post: form POST with the token in the body', async () => {
    const id = await run(fixture(publishing, 'createContainer'), () =>
      client.createTextContainer(LONG_LIVED, {
        text: 'Five kerning pairs worth checking.',
        quotePostId: '17900000000000101',
      }),
    );
    expect(id).toBe('17900000000000201');
  });

  test('container status FINISHED, and ERROR with its message', async () => {
    expect(
      await run(fixture(publishing, 'containerFinished'), () =>
        client.containerStatus(LONG_LIVED, '17900000000000201'),
      ),
    ).toEqual({ status: 'FINISHED', errorMessage: null });
    expect(
      await run(fixture(publishing, 'containerError'), () =>
        client.containerStatus(LONG_LIVED, '17900000000000202'),
      ),
    ).toEqual({ status: 'ERROR', errorMessage: 'The text is too long (fixture wording).' });
  });

  test('publish: form POST with creation_id, then the new post read back for its permalink', async () => {
    const publish = fixture(publishing, 'publish');
    const readBack = fixture(publishing, 'publishedPost');
    const received = server.serve(publish, readBack);
    expect(await client.publishContainer(LONG_LIVED, '17900000000000201')).toEqual({
      id: '17900000000000301',
      permalink: 'https://www.threads.com/@grid.and.glyph/post/DFixtPUB001',
    });
    expect(received.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1.0/me/threads_publish',
      'GET /v1.0/17900000000000301',
    ]);
    for (const request of received)
      expectRequest(request, exchangeFor(request, [publish, readBack]) ?? publish);
  });

  test('the publishing limit: quota_usage of config.quota_total', async () => {
    const quota = await run(fixture(publishing, 'publishingLimit'), () => client.publishingQuota(LONG_LIVED));
    expect(quota).toEqual({ used: 4, limit: 250 });
  });
});

describe(`${errors.section}`, () => {
  test.each(errors.cases.map((item) => [item.error.code, item.kind, item] as const))(
    'Graph code %s is %s, with fbtrace_id kept',
    async (_code, kind, item) => {
      const exchange: Exchange = {
        section: `7. error code ${String(item.error.code)}`,
        request: { method: 'GET', path: '/v1.0/me', query: { fields: ['id'], access_token: LONG_LIVED } },
        response: { status: item.status, json: { error: item.error } },
      };
      const error = await refusal(run(exchange, () => client.me(LONG_LIVED)));
      expect(error).toMatchObject({
        kind,
        status: item.status,
        code: item.error.code,
        subcode: item.error.error_subcode ?? null,
        fbtraceId: item.error.fbtrace_id,
        temporary: kind === 'throttled' || kind === 'unavailable',
      });
      // The message is Meta's, safe to show; the token never appears in it.
      expect(error.message).toContain('fixture wording');
      expect(error.message).not.toContain(LONG_LIVED);
    },
  );

  test('code 100 / subcode 33 from post() is null, any other code 100 is rejected', async () => {
    const exchange: Exchange = {
      section: '7. code 100 without subcode 33',
      request: {
        method: 'GET',
        path: '/v1.0/17900000000000101',
        query: { fields: ['id'], access_token: LONG_LIVED },
      },
      response: {
        status: 400,
        json: {
          error: {
            message: 'Invalid parameter (fixture wording).',
            type: 'THApiException',
            code: 100,
            fbtrace_id: 'AFixtureTrace100',
          },
        },
      },
    };
    const error = await refusal(run(exchange, () => client.post(LONG_LIVED, '17900000000000101')));
    expect(error).toMatchObject({
      kind: 'rejected',
      code: 100,
      subcode: null,
      fbtraceId: 'AFixtureTrace100',
    });
  });
});
