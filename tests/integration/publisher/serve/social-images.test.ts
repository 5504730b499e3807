import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { ManifestSchema } from '../../../../contract/manifest.ts';
import { socialImagePath } from '../../../../contract/social-image.ts';
import { threads } from '../../../../server/db/schema.ts';
import { approvedMember, ORIGIN, saveProfile, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Link preview pictures drawn per page by the real app (issue 20, decision 048).
let app: FastifyInstance;
let base: string;

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

async function approvedThread(text: string, status: 'approved' | 'pending' = 'approved'): Promise<string> {
  const { db } = await testDatabase();
  const shortcode = `S${Math.random().toString(36).slice(2, 10)}`;
  const [stored] = await db
    .insert(threads)
    .values({
      shortcode,
      source: 'public_search',
      status,
      username: 'ada',
      authorName: 'Ada',
      text,
      topicTag: 'Typography',
      permalink: `https://www.threads.com/@ada/post/${shortcode}`,
      postedAt: new Date(Date.UTC(2026, 10, 20)),
    })
    .returning({ id: threads.id });
  return stored?.id ?? '';
}

/** Checks a response is a 1200×630 PNG with the preview's caching, and returns its bytes. */
async function picture(response: Response): Promise<Buffer> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  expect(response.headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const png = Buffer.from(await response.arrayBuffer());
  expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
  return png;
}

beforeAll(async () => {
  ({ app, base } = await startApp());
});
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

test("an approved thread's picture is drawn from its words, answers 304 to its ETag, and its page names it", async () => {
  const first = await approvedThread('Grids are a promise the layout keeps.');
  const second = await approvedThread('Type sets the voice before a word is read.');
  const response = await get(socialImagePath('thread', first));
  const png = await picture(response);
  // Other words, another drawing.
  expect(png.equals(await picture(await get(socialImagePath('thread', second))))).toBe(false);
  const etag = response.headers.get('etag') ?? '';
  expect(etag).toMatch(/^"/);
  expect((await get(socialImagePath('thread', first), { 'if-none-match': etag })).status).toBe(304);
  const html = await (await get(`/thread/${first}`)).text();
  expect(html).toContain(`<meta property="og:image" content="${ORIGIN}${socialImagePath('thread', first)}">`);
});

test('no picture for a page that does not exist: pending thread, unknown ids, kinds and names', async () => {
  const pending = await approvedThread('Not yet', 'pending');
  const paths = [
    socialImagePath('thread', pending),
    socialImagePath('thread', '00000000-0000-4000-8000-000000000000'),
    socialImagePath('thread', 'not-a-uuid'),
    socialImagePath('topic', 'no-such-topic'),
    socialImagePath('profile', 'nobody_here'),
    '/social/other/x.png',
    '/social/thread/',
    `/social/thread/${pending}`,
  ];
  for (const path of paths) {
    const response = await get(path);
    expect(response.status, path).toBe(404);
    expect(await response.text(), path).toContain('Page not found');
  }
});

test("a topic's picture comes from the served manifest; its pre-rendered page names it", async () => {
  const manifest = ManifestSchema.parse(await (await get('/data/manifest.json')).json());
  const topic = manifest.topics?.[0];
  if (!topic) {
    // The PostgreSQL pass serves an export of its shared database, without topics: then no picture.
    expect((await get(socialImagePath('topic', 'typography'))).status).toBe(404);
    return;
  }
  const path = socialImagePath('topic', topic?.slug ?? '');
  await picture(await get(path));
  const html = await (await get(`/topics/${encodeURIComponent(topic?.slug ?? '')}`)).text();
  expect(html).toContain(`content="${ORIGIN}${path}"`);
});

test("an approved member's profile has a picture; a pending one's has none", async () => {
  const cookie = await approvedMember(base, 'picture_member');
  expect((await saveProfile(base, cookie, 'picture_member', 'I draw grids.')).status).toBe(200);
  await picture(await get(socialImagePath('profile', 'picture_member')));
  await picture(await get(socialImagePath('profile', 'PICTURE_MEMBER')));
  expect((await get(socialImagePath('profile', 'someone_else'))).status).toBe(404);
});
