import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SEARCH_KEYWORDS, SEED_POSTS, ownPostsFor } from '../../../server/simulator/seed-posts.ts';
import { EARLIEST_SINCE, SEARCH_QUOTA } from '../../../server/simulator/search-routes.ts';
import { ThreadsApiError, type PostPage, type SearchQuery } from '../../../server/threads/gateway.ts';
import { createThreadsClient } from '../../../server/threads/live-client.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { authorizationCode, CURATOR_GRANT, REDIRECT_URI, startApp } from '../auth/helpers.ts';

// The strict simulator (decision 023) through the product's own live client, over real HTTP.
const HOUR = 3_600_000;
let now = Date.now();
const clock = () => now;

interface Started {
  app: FastifyInstance;
  base: string;
  client: ReturnType<typeof createThreadsClient>;
  /** A token of `username` with every scope the product asks for. */
  token(username: string): Promise<string>;
  /** A media address as this app serves it (the simulator names the configured public origin). */
  local(url: string): string;
}

async function start(env: Record<string, string>): Promise<Started> {
  const { app, base } = await startApp(env, { simulatedClock: clock });
  const client = createThreadsClient({
    graphBaseUrl: `${base}/simulated-threads`,
    appId: SIMULATED_APP.id,
    appSecret: SIMULATED_APP.secret,
  });
  return {
    app,
    base,
    client,
    token: async (username) =>
      (
        await client.exchangeCode(
          await authorizationCode(base, username, { scopes: CURATOR_GRANT }),
          REDIRECT_URI,
        )
      ).accessToken,
    local: (url) => {
      const parsed = new URL(url);
      return `${base}${parsed.pathname}${parsed.search}`;
    },
  };
}

/** Every page of a search, following `after`. */
async function allPages(started: Started, token: string, query: SearchQuery): Promise<PostPage[]> {
  const pages: PostPage[] = [];
  let after: string | null = null;
  do {
    const page: PostPage = await started.client.keywordSearch(token, { ...query, after });
    pages.push(page);
    after = page.next;
  } while (after);
  return pages;
}

describe('advanced access (threads-api.md section 3: public posts)', () => {
  let s: Started;
  let token: string;
  beforeAll(async () => {
    s = await start({ SIMULATED_ACCESS_LEVEL: 'advanced', SIMULATED_MEDIA_TTL_SECONDS: '600' });
    token = await s.token('searcher');
  });
  afterAll(() => s.app.close());

  test('keyword search sees public posts; text posts say TEXT in search and TEXT_POST as media objects (section 3 note)', async () => {
    const page = await s.client.keywordSearch(token, {
      q: 'typography',
      mode: 'KEYWORD',
      type: 'TOP',
      limit: 100,
    });
    expect(page.posts.length).toBeGreaterThan(10);
    expect(page.posts.some((post) => post.username !== 'searcher')).toBe(true);
    const text = page.posts.find((post) => post.mediaType === 'TEXT');
    expect(text).toBeDefined();
    expect(page.posts.some((post) => post.mediaType === 'TEXT_POST')).toBe(false);
    expect((await s.client.post(token, text?.id ?? ''))?.mediaType).toBe('TEXT_POST');
  });

  test('limit, cursor pages and since/until (sections 2 and 3)', async () => {
    const query = { q: 'accessibility', mode: 'KEYWORD', type: 'RECENT', limit: 5 } as const;
    const first = await s.client.keywordSearch(token, query);
    expect(first.posts).toHaveLength(5);
    expect(first.next).not.toBeNull();
    const second = await s.client.keywordSearch(token, { ...query, after: first.next });
    expect(second.posts).toHaveLength(5);
    const firstIds = new Set(first.posts.map((post) => post.id));
    expect(second.posts.some((post) => firstIds.has(post.id))).toBe(false);
    // RECENT: newest first, across pages.
    const times = [...first.posts, ...second.posts].map((post) => Date.parse(post.timestamp ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // `since` keeps only posts published at or after it.
    const middle = new Date(times[4] ?? 0);
    const pages = await allPages(s, token, { ...query, limit: 100, since: middle });
    const since = pages.flatMap((page) => page.posts);
    expect(since.length).toBe(5);
    for (const post of since)
      expect(Date.parse(post.timestamp ?? '')).toBeGreaterThanOrEqual(middle.getTime());

    const raw = (params: Record<string, string>) =>
      fetch(
        `${s.base}/simulated-threads/v1.0/keyword_search?${new URLSearchParams({ q: 'ux', access_token: token, ...params })}`,
      );
    for (const bad of [
      { limit: '101' },
      { limit: '0' },
      { since: String(EARLIEST_SINCE - 1) },
      { until: 'soon' },
    ]) {
      const response = await raw(bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(100);
    }
    const defaulted = (await (await raw({})).json()) as { data: { media_type: string }[] };
    expect(defaulted.data).toHaveLength(25);
  });

  test('videos bring their thumbnail, carousels their first picture; reposts and a malformed item are skipped, not their page (section 10)', async () => {
    const malformed = SEED_POSTS.find((post) => post.usernameHidden);
    const keyword = SEARCH_KEYWORDS.find((word) =>
      malformed?.text.toLowerCase().includes(word.toLowerCase()),
    );
    if (!keyword) throw new Error('the malformed seed item matches no keyword');
    const expected = SEED_POSTS.filter((post) => post.text.toLowerCase().includes(keyword.toLowerCase()));
    const pages = await allPages(s, token, { q: keyword, mode: 'KEYWORD', type: 'TOP', limit: 100 });
    const posts = pages.flatMap((page) => page.posts);
    const skipped = pages.reduce((n, page) => n + page.skipped, 0);
    const unusable = expected.filter((post) => post.mediaType === 'REPOST_FACADE' || post.usernameHidden);
    expect(unusable.length).toBeGreaterThanOrEqual(1);
    expect(skipped).toBe(unusable.length);
    expect(posts).toHaveLength(expected.length - unusable.length);

    const video = SEED_POSTS.find((post) => post.mediaType === 'VIDEO' && !post.usernameHidden);
    const carousel = SEED_POSTS.find((post) => post.mediaType === 'CAROUSEL_ALBUM');
    const videoPost = await s.client.post(token, video?.id ?? '');
    expect(videoPost?.mediaUrl).toMatch(
      /\/simulated-threads\/media\/design-\d{2}\.webp\?oe=[0-9A-F]+&_nc_sig=/,
    );
    const carouselPost = await s.client.post(token, carousel?.id ?? '');
    expect(carouselPost?.mediaUrl).toContain(`design-${String(carousel?.imageIndex).padStart(2, '0')}.webp`);
  });

  test('media URLs work until their oe, then answer 403 like Meta’s CDN (section 10, media URLs expire)', async () => {
    const image = SEED_POSTS.find((post) => post.mediaType === 'IMAGE');
    const url = (await s.client.post(token, image?.id ?? ''))?.mediaUrl ?? '';
    const oe = Number.parseInt(new URL(url).searchParams.get('oe') ?? '', 16);
    expect(oe).toBe(Math.floor(now / 1000) + 600);
    const served = await fetch(s.local(url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(100);

    const forged = new URL(s.local(url));
    forged.searchParams.set('oe', (oe + 3600).toString(16).toUpperCase());
    expect((await fetch(forged)).status).toBe(403);

    now += 601_000;
    const expired = await fetch(s.local(url));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toBe('URL signature expired');
  });
});

describe('standard access (threads-api.md sections 3 and 10: before App Review)', () => {
  let s: Started;
  let token: string;
  beforeAll(async () => {
    now = Date.now();
    s = await start({ SIMULATED_ACCESS_LEVEL: 'standard' });
    token = await s.token('maren.makes');
  });
  afterAll(() => s.app.close());

  test("search covers only the token owner's posts; others' posts answer code 100, subcode 33", async () => {
    const own = ownPostsFor('maren.makes');
    const tag = own.find((post) => post.topicTag)?.topicTag ?? '';
    const found = await s.client.keywordSearch(token, { q: tag, mode: 'TAG', type: 'TOP' });
    expect(found.posts.length).toBeGreaterThan(0);
    expect(found.posts.every((post) => post.username === 'maren.makes')).toBe(true);
    const publicHits = await s.client.keywordSearch(token, { q: 'typography', mode: 'KEYWORD', type: 'TOP' });
    expect(publicHits.posts.every((post) => post.username === 'maren.makes')).toBe(true);

    const other = SEED_POSTS[0];
    expect(await s.client.post(token, other?.id ?? '')).toBeNull();
    const raw = await fetch(
      `${s.base}/simulated-threads/v1.0/${other?.id}?access_token=${encodeURIComponent(token)}`,
    );
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: unknown }).error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await s.client.post(token, own[0]?.id ?? ''))?.username).toBe('maren.makes');
  });
});

describe('the search quota (threads-api.md section 3: 2,200 per user per rolling 24 h)', () => {
  let s: Started;
  beforeAll(async () => {
    now = Date.now();
    s = await start({});
  });
  afterAll(() => s.app.close());

  test('empty answers are free; the 2,201st counted search is throttled (code 613) until the window rolls on', async () => {
    const token = await s.token('busy.searcher');
    const other = await s.token('calm.searcher');
    const search = (q: string, who = token) =>
      s.client.keywordSearch(who, { q, mode: 'KEYWORD', type: 'TOP', limit: 1 });
    for (let i = 0; i < 5; i++) expect((await search('no such phrase anywhere')).posts).toEqual([]);
    for (let made = 0; made < SEARCH_QUOTA; made += 50)
      await Promise.all(Array.from({ length: Math.min(50, SEARCH_QUOTA - made) }, () => search('design')));
    const refused = await search('design').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ThreadsApiError);
    expect(refused).toMatchObject({ kind: 'throttled', code: 613, temporary: true });
    // Per user: another person's searches still work.
    expect((await search('design', other)).posts).toHaveLength(1);

    now += 24 * HOUR + 1000;
    // The tokens are short-lived (an hour): a new one for the same person.
    const later = await s.token('busy.searcher');
    expect((await search('design', later)).posts).toHaveLength(1);
  }, 120_000);
});
