import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { OPTED_OUT_SUBMISSION, type AuthorOverview } from '../../../contract/authors.ts';
import type { ModerationLogPage } from '../../../contract/moderation-log.ts';
import type { ManualSubmission } from '../../../contract/submission.ts';
import { threadPath } from '../../../contract/thread-page.ts';
import { generatedPosts, threads } from '../../../server/db/schema.ts';
import { ownPostsFor, postsMatchingKeyword } from '../../../server/simulator/seed-posts.ts';
import { api, approvedMember, signIn, signInCurator, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// Issue 34 part 1, decision 063 (security matrix row 28): a post belongs to whoever Threads says
// wrote it, never to the handle typed into its link. Over real HTTP with the simulated provider.
let app: FastifyInstance;
let base: string;
let admin: string;

const KEYWORD = 'typography';
// The newest match of the run's keyword: certainly among its results (as in author-control.test.ts).
const SEARCHED = postsMatchingKeyword(KEYWORD)[0];
const AUTHOR = SEARCHED?.username ?? '';
const CODE = SEARCHED?.shortcode ?? '';

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: KEYWORD, CURATION_TAGS: '' }));
  admin = await signInCurator(base);
});
afterEach(() => app.close());

const post = (cookie: string, path: string, body?: unknown) =>
  api(base, path, { method: 'POST', cookie, ...(body === undefined ? {} : { body }) });
const submit = (cookie: string, link: string) =>
  post(cookie, '/api/dashboard/manual-submission', { thread_url: link });

async function rowOf(shortcode: string) {
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.shortcode, shortcode));
  if (!row) throw new Error(`no thread ${shortcode}`);
  return row;
}

async function yourPosts(cookie: string): Promise<string[]> {
  const response = await api(base, '/api/authors/me', { cookie });
  expect(response.status).toBe(200);
  return ((await response.json()) as AuthorOverview).posts.map((item) => item.id);
}

async function logHandles(): Promise<(string | null)[]> {
  const response = await api(base, '/api/moderation');
  expect(response.status).toBe(200);
  return ((await response.json()) as ModerationLogPage).entries.map((entry) => entry.handle);
}

test('a handle typed into a link attributes nothing: no author, no control, no name on any public surface', async () => {
  const mallory = await approvedMember(base, 'mallory');
  const henry = await signIn(base, 'henry');
  const created = await submit(mallory, 'https://www.threads.com/@henry/post/Typed1xyz');
  expect(created.status).toBe(201);
  expect(((await created.json()) as { submission: ManualSubmission }).submission).toMatchObject({
    handle: 'Threads post',
    permalink: 'https://www.threads.com/t/Typed1xyz',
  });
  const row = await rowOf('Typed1xyz');
  expect(row).toMatchObject({ username: null, authorName: null, ownerUserId: null });

  // /@x/post/C, /@y/post/C and /t/C are one post: one row, one decision.
  for (const again of [
    'https://www.threads.com/@mallory/post/Typed1xyz',
    'https://www.threads.com/t/Typed1xyz',
  ])
    expect((await submit(mallory, again)).status).toBe(409);

  // Neither the typed handle's owner nor the submitter may remove it, or sees it as theirs.
  expect(await yourPosts(henry)).toEqual([]);
  expect(await yourPosts(mallory)).toEqual([]);
  expect((await post(henry, `/api/authors/me/posts/${row.id}/remove`)).status).toBe(404);
  expect((await post(mallory, `/api/authors/me/posts/${row.id}/remove`)).status).toBe(404);

  // Approved: the curator's post and the thread page name no one.
  expect((await post(admin, '/api/threads/approve', { thread_id: row.id })).status).toBe(200);
  const { db } = await testDatabase();
  const [queued] = await db.select().from(generatedPosts).where(eq(generatedPosts.threadId, row.id));
  expect(queued?.content).toBe('Curated pick from a Threads member\n\nhttps://www.threads.com/t/Typed1xyz');
  const page = await fetch(`${base}${threadPath(row.id)}`);
  expect(page.status).toBe(200);
  expect(await page.text()).not.toContain('@henry');

  // Rejected under a made-up handle: the public log does not carry it.
  const zed = await submit(mallory, 'https://www.threads.com/@zed.target/post/Zed1xyzz');
  expect(zed.status).toBe(201);
  const zedRow = await rowOf('Zed1xyzz');
  const reason = { thread_id: zedRow.id, reason: 'Not about design or UI' };
  expect((await post(admin, '/api/threads/reject', reason)).status).toBe(200);
  expect(await logHandles()).not.toContain('@zed.target');
});

test("a member's own post is theirs whatever handle the link carries; a typed opted-out handle is still refused", async () => {
  const mallory = await approvedMember(base, 'mallory');
  const [own] = ownPostsFor('mallory');
  const created = await submit(mallory, `https://www.threads.com/@someone.else/post/${own?.shortcode ?? ''}`);
  expect(created.status).toBe(201);
  const row = await rowOf(own?.shortcode ?? '');
  expect(row.username).toBe('mallory');
  expect(row.permalink).toBe(`https://www.threads.com/@mallory/post/${own?.shortcode ?? ''}`);
  expect(await yourPosts(mallory)).toEqual([row.id]);

  // Refusing more never gives anyone a post: a typed handle of an opted-out author is refused.
  const author = await signIn(base, 'ori.ux');
  expect((await post(author, '/api/authors/me/opt-out')).status).toBe(200);
  const refused = await submit(mallory, 'https://www.threads.com/@ori.ux/post/OriPost1x');
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { detail: string }).detail).toBe(OPTED_OUT_SUBMISSION);
});

test("a search result names a submitted post's author: the post becomes theirs, and an opt-out takes it out of the queue", async () => {
  const author = await signIn(base, AUTHOR);
  expect((await post(author, '/api/authors/me/opt-out')).status).toBe(200);
  // Typed under the submitter's own handle to slip past the opt-out.
  const mallory = await approvedMember(base, 'mallory');
  expect((await submit(mallory, `https://www.threads.com/@mallory/post/${CODE}`)).status).toBe(201);
  expect((await rowOf(CODE)).username).toBeNull();

  const run = await post(admin, '/api/admin/refresh');
  expect(run.status).toBe(200);
  const row = await rowOf(CODE);
  expect(row).toMatchObject({
    username: AUTHOR,
    permalink: `https://www.threads.com/@${AUTHOR}/post/${CODE}`,
    status: 'removed',
    statusBeforeRemoval: 'pending',
  });
  // Now the author's to see (and restore); never the submitter's.
  expect(await yourPosts(author)).toEqual([row.id]);
  // (The run also collected the member's own posts: hers, not this one.)
  expect(await yourPosts(mallory)).not.toContain(row.id);
});

test('a search result fills in an unattributed submission: author, link and text from Threads', async () => {
  const mallory = await approvedMember(base, 'mallory');
  expect((await submit(mallory, `https://www.threads.com/@mallory/post/${CODE}`)).status).toBe(201);
  expect((await post(admin, '/api/admin/refresh')).status).toBe(200);
  expect(await rowOf(CODE)).toMatchObject({
    username: AUTHOR,
    permalink: `https://www.threads.com/@${AUTHOR}/post/${CODE}`,
    text: SEARCHED?.text,
    source: 'manual_submission',
    status: 'pending',
  });
});
