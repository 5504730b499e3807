import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { authorOptOuts, threads } from '../../../../server/db/schema.ts';
import { pageCsp } from '../../../../server/http/page-csp.ts';
import { THREAD_TEMPLATE_FILE } from '../../../../server/http/site-files.ts';
import type { NewThread } from '../../../../server/repositories/threads.ts';
import { ORIGIN, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// A page per thread (issue 20, decision 046): the real app fills the built template from the database.
let app: FastifyInstance;
let base: string;

const HOSTILE = `Type <script>alert("x")</script> & 'quotes' "too" __CT_TITLE__`;

function row(shortcode: string, overrides: Partial<NewThread> = {}): NewThread {
  return {
    shortcode,
    source: 'public_search',
    status: 'approved',
    username: `author_${shortcode.toLowerCase()}`,
    authorName: `Author ${shortcode}`,
    text: `Post ${shortcode}`,
    imageUrl: null,
    topicTag: 'Typography',
    permalink: `https://www.threads.com/@author_${shortcode.toLowerCase()}/post/${shortcode}`,
    postedAt: new Date(Date.UTC(2026, 10, 20, 12, Number(shortcode.replace(/\D/g, '')) || 0)),
    ...overrides,
  };
}

async function insert(rows: NewThread[]): Promise<Record<string, string>> {
  const { db } = await testDatabase();
  const stored = await db
    .insert(threads)
    .values(rows)
    .returning({ id: threads.id, shortcode: threads.shortcode });
  return Object.fromEntries(stored.map(({ shortcode, id }) => [shortcode, id]));
}

const page = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

beforeAll(async () => {
  ({ app, base } = await startApp());
});
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

test(
  "an approved thread's page shows it escaped, its topic, related threads and preview tags",
  { tags: ['engine'] },
  async () => {
    const ids = await insert([
      row('T1', { text: HOSTILE, authorName: 'Ada "&" <Lovelace>', imageUrl: 'https://cdn.example/a.jpg' }),
      row('T2'),
      row('T3', { topicTag: 'typography' }),
      row('T4', { topicTag: 'Motion' }),
      row('T5', { status: 'pending' }),
    ]);
    const response = await page(`/thread/${ids.T1}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('stale-while-revalidate');
    expect(response.headers.get('etag')).toMatch(/^"/);
    const html = await response.text();
    // Member text stays text: no element of its own, quotes and ampersands as entities.
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('Type &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    expect(html).toContain('Ada &quot;&amp;&quot; &lt;Lovelace&gt;');
    // A placeholder written by a member is not filled.
    expect(html).toContain('&quot;too&quot; __CT_TITLE__');
    expect(html).not.toMatch(/__CT_(?!TITLE__)[A-Z_]+__/);
    expect(html).toContain('href="https://www.threads.com/@author_t1"');
    expect(html).toContain(`href="https://www.threads.com/@author_t1/post/T1"`);
    expect(html).toContain('href="/topics/typography"');
    expect(html).toContain(`src="/api/media/${ids.T1}"`);
    // Related: the same topic whatever its case, newest first, never itself or another topic's.
    expect(html).toContain(`href="/thread/${ids.T3}"`);
    expect(html).toContain(`href="/thread/${ids.T2}"`);
    expect(html.indexOf(`/thread/${ids.T3}"`)).toBeLessThan(html.indexOf(`/thread/${ids.T2}"`));
    expect(html).not.toContain(`/thread/${ids.T4}`);
    expect(html).not.toContain(`/thread/${ids.T5}`);
    // Preview tags with absolute addresses on PUBLIC_URL.
    const url = `${ORIGIN}/thread/${ids.T1}`;
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    expect(html).toContain(`<meta property="og:url" content="${url}">`);
    expect(html).toContain(`<meta property="og:image" content="${ORIGIN}/social/thread/${ids.T1}.png">`);
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toMatch(
      /<meta property="og:title" content="Ada &quot;&amp;&quot; &lt;Lovelace&gt;: “Type &lt;script/,
    );
    expect(html).toMatch(/<meta property="og:description" content="Type &lt;script&gt;/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).not.toContain('<template data-ct-part');
    // The CSP is the template's, whatever the member wrote.
    const { readFile } = await import('node:fs/promises');
    const { TEST_SITE } = await import('../../../site-under-test.ts');
    const template = await readFile(`${TEST_SITE.siteDir}/${THREAD_TEMPLATE_FILE}`, 'utf8');
    expect(response.headers.get('content-security-policy')).toBe(pageCsp(template, { secure: false }));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  },
);

test('a thread page is compressed as other pages and answers 304 to its ETag', async () => {
  const ids = await insert([row('T1')]);
  const br = await page(`/thread/${ids.T1}`, { 'accept-encoding': 'br' });
  expect(br.headers.get('content-encoding')).toBe('br');
  expect(br.headers.get('vary')).toBe('Accept-Encoding');
  const etag = br.headers.get('etag') ?? '';
  expect(await br.text()).toContain('Post T1');
  const again = await page(`/thread/${ids.T1}`, { 'accept-encoding': 'br', 'if-none-match': etag });
  expect(again.status).toBe(304);
});

test('a thread without a topic has no topic or related section', async () => {
  const ids = await insert([row('T1', { topicTag: null }), row('T2', { topicTag: null })]);
  const html = await (await page(`/thread/${ids.T1}`)).text();
  expect(html).toContain('Post T1');
  expect(html).not.toContain('href="/topics/');
  expect(html).not.toContain('class="thread-related"');
});

test('pending, rejected, removed, unknown and malformed ids answer the 404 page; an opted-out author keeps theirs', async () => {
  const ids = await insert([
    row('T1', { status: 'pending' }),
    row('T2', { status: 'rejected' }),
    row('T3', { status: 'removed' }),
    row('T4', { username: 'gone_author' }),
    row('T5'),
  ]);
  const { db } = await testDatabase();
  await db.insert(authorOptOuts).values({ threadsUserId: 'tu-gone', username: 'gone_author' });
  const paths = [
    ...['T1', 'T2', 'T3'].map((code) => `/thread/${ids[code]}`),
    '/thread/00000000-0000-4000-8000-000000000000',
    '/thread/not-a-uuid',
    `/thread/${ids.T5}/extra`,
    '/thread/template',
    '/thread/template/',
    `/${THREAD_TEMPLATE_FILE}`,
    "/thread/1'%20or%201=1",
  ];
  for (const path of paths) {
    const response = await page(path);
    expect(response.status, path).toBe(404);
    expect(await response.text(), path).toContain('Page not found');
  }
  // A path that cannot be decoded is a 400 here as everywhere on the site (Fastify's), never a 500.
  expect((await page('/thread/%E0%A4%A')).status).toBe(400);
  // Opting out stops future curation; the approved card stays until its author removes it
  // (decision 028), and so does its page, in the related lists too.
  expect((await page(`/thread/${ids.T4}`)).status).toBe(200);
  const html = await (await page(`/thread/${ids.T5}`)).text();
  expect(html).toContain(`/thread/${ids.T4}`);
});

test('taking a thread out of the catalogue makes its page a 404', async () => {
  const ids = await insert([row('T1')]);
  expect((await page(`/thread/${ids.T1}`)).status).toBe(200);
  const { db } = await testDatabase();
  await db
    .update(threads)
    .set({ status: 'removed', statusBeforeRemoval: 'approved' })
    .where(eq(threads.id, ids.T1 ?? ''));
  expect((await page(`/thread/${ids.T1}`)).status).toBe(404);
});
