import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { CurationRunSummary } from '../../../../contract/review.ts';
import { searchCalls, threads } from '../../../../server/db/schema.ts';
import { SEARCH_KEYWORDS, SEED_POSTS } from '../../../../server/simulator/seed-posts.ts';
import { api, signInCurator, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Curation's searches (threads-api.md section 3) against the simulated provider over HTTP.
let app: FastifyInstance;
let base: string;
let admin: string;

async function start(keyword: string) {
  // An empty list means the defaults: a tag no post carries keeps the searches to the keyword's.
  ({ app, base } = await startApp({ CURATION_KEYWORDS: keyword, CURATION_TAGS: 'NoPostHasThisTag' }));
  admin = await signInCurator(base);
}

beforeEach(async () => resetDatabase(await testDatabase()));
afterEach(() => app.close());

async function refresh(): Promise<CurationRunSummary> {
  const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  expect(response.status).toBe(200);
  return ((await response.json()) as { run: CurationRunSummary }).run;
}

async function calls() {
  const { db } = await testDatabase();
  const rows = await db.select().from(searchCalls).orderBy(searchCalls.id);
  return rows.filter((row) => row.query.startsWith('KEYWORD:'));
}

test('RECENT with since the last answered search every run, TOP once a day; every call recorded and answered', async () => {
  await start('typography');
  expect((await refresh()).searches).toBe(4);
  const first = await calls();
  expect(first.map((call) => call.query)).toEqual(['KEYWORD:RECENT:typography', 'KEYWORD:TOP:typography']);
  expect(first.every((call) => call.completedAt !== null)).toBe(true);

  // Nothing newer than the first run: RECENT finds nothing, and TOP waits for its day.
  const second = await refresh();
  expect(second.searches).toBe(2);
  expect(second.counts.public_search).toEqual({ seen: 0, added: 0 });
  expect((await calls()).map((call) => call.query).slice(2)).toEqual(['KEYWORD:RECENT:typography']);

  // A day after the last TOP search, the next run makes one again.
  const { db } = await testDatabase();
  await db
    .update(searchCalls)
    .set({ calledAt: sql`${searchCalls.calledAt} - interval '25 hours'` })
    .where(eq(searchCalls.query, 'KEYWORD:TOP:typography'));
  const third = await refresh();
  expect(third.searches).toBe(3);
  expect(third.counts.public_search?.seen).toBeGreaterThan(10);
  expect(third.counts.public_search?.added).toBe(0);
});

test('videos and carousels arrive with their picture and its expiry; reposts and a malformed item cost only themselves', async () => {
  const malformed = SEED_POSTS.find((post) => post.usernameHidden);
  const keyword = SEARCH_KEYWORDS.find((word) => malformed?.text.toLowerCase().includes(word.toLowerCase()));
  if (!keyword) throw new Error('the malformed seed item matches no keyword');
  await start(keyword);
  const run = await refresh();
  expect(run.status).toBe('succeeded');
  expect(run.errors).toEqual([]);
  const matching = SEED_POSTS.filter((post) => post.text.toLowerCase().includes(keyword.toLowerCase()));
  const usable = matching.filter((post) => post.mediaType !== 'REPOST_FACADE' && !post.usernameHidden);
  expect(usable.length).toBeLessThan(matching.length);
  expect(run.counts.public_search?.added).toBe(usable.length);

  const { db } = await testDatabase();
  const stored = await db.select().from(threads);
  const byCode = new Map(stored.map((row) => [row.shortcode, row]));
  for (const post of matching) {
    const row = byCode.get(post.shortcode);
    if (!usable.includes(post)) {
      expect(row, `${post.mediaType} ${post.shortcode}`).toBeUndefined();
      continue;
    }
    if (post.mediaType === 'VIDEO' || post.mediaType === 'CAROUSEL_ALBUM' || post.mediaType === 'IMAGE') {
      // A video's thumbnail, a carousel's first child: the seed's picture number.
      expect(row?.imageUrl).toContain(`/media/design-${String(post.imageIndex).padStart(2, '0')}.webp?oe=`);
      const oe = Number.parseInt(new URL(row?.imageUrl ?? '').searchParams.get('oe') ?? '', 16);
      expect(row?.imageExpiresAt?.getTime()).toBe(oe * 1000);
    } else {
      expect(row?.imageUrl).toBeNull();
    }
  }
  expect(matching.some((post) => post.mediaType === 'VIDEO' || post.mediaType === 'CAROUSEL_ALBUM')).toBe(
    true,
  );
});

test('a RECENT search follows its after cursors page by page (100 a page); TOP reads one page', async () => {
  // One letter matches nearly every seeded post: more than two pages of 100.
  const matching = SEED_POSTS.filter((post) => post.text.toLowerCase().includes('e'));
  expect(matching.length).toBeGreaterThan(200);
  expect(matching.length).toBeLessThanOrEqual(300);
  await start('e');
  const run = await refresh();
  expect(run.errors).toEqual([]);
  // Three RECENT pages and one TOP page, and the unused tag's RECENT and TOP.
  expect(run.searches).toBe(4 + 2);
  const usable = matching.filter((post) => post.mediaType !== 'REPOST_FACADE' && !post.usernameHidden);
  expect(run.counts.public_search?.added).toBe(usable.length);
  expect((await calls()).map((call) => call.query)).toEqual([
    'KEYWORD:RECENT:e',
    'KEYWORD:RECENT:e',
    'KEYWORD:RECENT:e',
    'KEYWORD:TOP:e',
  ]);
});
