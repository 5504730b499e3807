import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { digestId, previousWeek, weekRange } from '../../../contract/digest.ts';
import { threads } from '../../../server/db/schema.ts';
import { startTags } from '../../../server/http/html-tags.ts';
import { buildSite } from '../../../server/publisher/build/build-site.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { api, approvedMember, saveProfile, signIn, startApp } from '../auth/helpers.ts';
import { signRequest } from '../../../server/threads/signed-request.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { insertThreads, threadRows } from '../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The running server rebuilds its own copy of the site when profiles change and serves the new
// build without a restart: real Astro builds into a temporary folder.
let work: string;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  work = await mkdtemp(path.join(tmpdir(), 'ct-publish-'));
  const siteDir = path.join(work, 'site');
  await buildSite({ ...TEST_SITE, siteDir }, { capture: true });
  ({ app, base } = await startApp(
    // Every member change publishes here (no cap): publish-site-member-cap.test.ts tests the cap.
    // The digest is due as soon as its week has ended (the last test).
    {
      SITE_DIR: siteDir,
      DATA_DIR: path.join(work, 'data'),
      MEMBER_PUBLISH_INTERVAL_MINUTES: '0',
      DIGEST_HOLD_HOURS: '0',
    },
    { publishSite: true },
  ));
});

afterAll(async () => {
  await app.close();
  await rm(work, { recursive: true, force: true });
});

async function page(pathname: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${base}${pathname}`);
  return { status: response.status, html: await response.text() };
}

test('an approved profile is pre-rendered, follows edits, and disappears with the data', async () => {
  const before = await page('/pat_designs');
  expect(before.status).toBe(404);

  const home = await page('/');
  const assets = [...home.html.matchAll(/\/_astro\/[\w.-]+\.(?:js|css)/g)].map(([asset]) => asset);
  expect(assets.length).toBeGreaterThan(0);

  const cookie = await approvedMember(base, 'pat_designs');
  await app.publisher.settled();
  // A page loaded before the swap still gets its scripts, whatever the new build calls them.
  for (const asset of assets) expect((await page(asset)).status, asset).toBe(200);
  const built = await page('/pat_designs');
  expect(built.status).toBe(200);
  // Readable without JavaScript: the profile is in the HTML itself.
  expect(built.html).toContain('@pat_designs');
  expect(built.html).toContain('https://www.threads.com/@pat_designs');
  expect((await page('/sitemap.xml')).html).toContain(`${TEST_SITE.publicUrl}/pat_designs</loc>`);

  expect((await saveProfile(base, cookie, 'pat_builds', 'Grids, <b>type</b> & colour')).status).toBe(200);
  await app.publisher.settled();
  expect((await page('/pat_designs')).status).toBe(404);
  const renamed = await page('/pat_builds');
  expect(renamed.status).toBe(200);
  // Escaped text, never markup.
  expect(renamed.html).toContain('Grids, &lt;b&gt;type&lt;/b&gt; &amp; colour');
  const exported = JSON.parse(await readFile(path.join(work, 'data/site-data/profiles.json'), 'utf8'));
  expect(exported).toEqual([
    expect.objectContaining({ username: 'pat_builds', threads_username: 'pat_designs' }),
  ]);

  // Meta's data-deletion callback removes the member, and with them the pre-rendered page.
  const signedRequest = signRequest(
    {
      algorithm: 'HMAC-SHA256',
      user_id: simulatedUserId('pat_designs'),
      issued_at: Math.floor(Date.now() / 1000),
    },
    SIMULATED_APP.secret,
  );
  const deletion = await fetch(`${base}/api/auth/data-deletion`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ signed_request: signedRequest }),
  });
  expect(deletion.status).toBe(200);
  await app.publisher.settled();
  expect((await page('/pat_builds')).status).toBe(404);
  expect((await page('/sitemap.xml')).html).not.toContain('pat_builds');
});

test('a rejected invite publishes nothing; the public API answer follows writes at once', async () => {
  const cookie = await signIn(base, 'rejected_one');
  await api(base, '/api/user/request-invite', { method: 'POST', cookie });
  // Looked up (and cached as missing) before the decision.
  expect((await api(base, '/api/user/profile/rejected_one')).status).toBe(404);
  const admin = await signIn(base, 'admin');
  const decision = await api(base, '/api/admin/approve-user', {
    method: 'POST',
    cookie: admin,
    body: { user_id: simulatedUserId('rejected_one'), action: 'reject' },
  });
  expect(decision.status).toBe(200);
  await app.publisher.settled();
  expect((await page('/rejected_one')).status).toBe(404);

  expect((await api(base, '/api/user/profile/late_joiner')).status).toBe(404);
  await approvedMember(base, 'late_joiner');
  // The cached "not found" was cleared by the approval.
  const found = await api(base, '/api/user/profile/late_joiner');
  expect(found.status).toBe(200);
  expect(await found.json()).toMatchObject({ username: 'late_joiner' });
  await app.publisher.settled();
});

test('a bio that reads as markup stays text: escaped in every attribute, and the page CSP is the template own', async () => {
  const plain = await approvedMember(base, 'plain_bio');
  expect((await saveProfile(base, plain, 'plain_bio', 'Grids and type')).status).toBe(200);
  const tricky = await approvedMember(base, 'tricky_bio');
  // An unclosed <script> once ran a regex from here over the page's real loader script, whose hash
  // then went missing from the CSP: the islands stopped hydrating (issue 20).
  const bio = '</script><script>alert(1)</script><style>*{display:none}</style> and <script>';
  expect((await saveProfile(base, tricky, 'tricky_bio', bio)).status).toBe(200);
  await app.publisher.settled();

  const [plainPage, trickyPage] = await Promise.all([
    fetch(`${base}/plain_bio`),
    fetch(`${base}/tricky_bio`),
  ]);
  expect(trickyPage.status).toBe(200);
  expect(trickyPage.headers.get('content-security-policy')).toBe(
    plainPage.headers.get('content-security-policy'),
  );
  const html = await trickyPage.text();
  expect(html).toContain('<meta name="description" content="&lt;/script&gt;&lt;script&gt;alert(1)');
  for (const tag of startTags(html))
    for (const attribute of tag.attributes) expect(attribute.value ?? '', tag.name).not.toMatch(/[<>]/);
  // The bio is still there, whole, for the island and for readers.
  expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
});

test("last week's digest, once the job publishes it, has its page, joins the list, the feeds and the sitemap", async () => {
  const week = previousWeek(new Date());
  const id = digestId(week);
  expect((await page(`/digest/${id}`)).status).toBe(404);
  const empty = await page('/digest/');
  expect(empty.status).toBe(200);
  expect(empty.html).toContain('No digest has been published yet.');

  const { db } = await testDatabase();
  await insertThreads(threadRows(2));
  const { start } = weekRange(week);
  await db.update(threads).set({ decidedAt: new Date(start.getTime() + 86_400_000) });
  const [first] = await db.select().from(threads).where(eq(threads.status, 'approved')).limit(1);
  const run = await app.runJob('publish-digest', 'admin');
  expect(run).toMatchObject({ ran: true, result: { id, published: true, threads: 2 } });
  await app.publisher.settled();

  const digest = await page(`/digest/${id}`);
  expect(digest.status).toBe(200);
  expect(digest.html).toContain(`Week ${week.week}, ${week.year}`);
  expect(digest.html).toContain(first?.permalink ?? 'no thread');
  expect(digest.html).toContain(`${TEST_SITE.publicUrl}/social/digest/${id}.png`);
  expect((await page('/digest/')).html).toContain(`href="/digest/${id}"`);
  const rss = await page('/digest/feed.xml');
  expect(rss.status).toBe(200);
  expect(rss.html).toContain(`<link>${TEST_SITE.publicUrl}/digest/${id}</link>`);
  const json = JSON.parse((await page('/digest/feed.json')).html) as { items: { id: string }[] };
  expect(json.items.map((item) => item.id)).toEqual([`digest-${id}`]);
  expect((await page('/sitemap.xml')).html).toContain(`${TEST_SITE.publicUrl}/digest/${id}</loc>`);
});
