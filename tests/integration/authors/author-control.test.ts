import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  AUTHOR_STATUS_TEXT,
  OPTED_OUT_SUBMISSION,
  type AuthorOptOutResult,
  type AuthorOverview,
  type AuthorPostResult,
} from '../../../contract/authors.ts';
import type { GemList } from '../../../contract/gems.ts';
import type { CurationRunSummary } from '../../../contract/review.ts';
import { auditLog, authorOptOuts, threads } from '../../../server/db/schema.ts';
import type { ContentChange } from '../../../server/services/content-change.ts';
import { postsMatchingKeyword } from '../../../server/simulator/seed-posts.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { api, approvedMember, signIn, signInCurator, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { allPending } from '../helpers/review-queue.ts';

// Authors in control (issue 18, decision 028) over real HTTP: the simulated provider's seeded authors
// sign in without an invite, the admin's curation run finds their public posts.
let app: FastifyInstance;
let base: string;
let admin: string;
let changes: ContentChange[];

const KEYWORD = 'typography';
// Threads-api.md "Keyword search": the newest posts come first, so the newest match's author is
// certainly among a run's results; the second author is another one in those results.
const matches = postsMatchingKeyword(KEYWORD);
const AUTHOR = matches[0]?.username ?? '';
const OTHER = matches.find((post) => post.username !== AUTHOR)?.username ?? '';

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: KEYWORD, CURATION_TAGS: '' }));
  changes = [];
  app.onContentChanged((change) => changes.push(change));
  admin = await signInCurator(base);
});
afterEach(() => app.close());

async function refresh(): Promise<CurationRunSummary> {
  const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  expect(response.status).toBe(200);
  return ((await response.json()) as { run: CurationRunSummary }).run;
}

async function overview(cookie: string): Promise<AuthorOverview> {
  const response = await api(base, '/api/authors/me', { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as AuthorOverview;
}

const post = (cookie: string, path: string) => api(base, path, { method: 'POST', cookie });

async function detail(response: Response): Promise<string> {
  return ((await response.json()) as { detail: string }).detail;
}

async function auditRows(action: string) {
  const { db } = await testDatabase();
  return db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id));
}

async function decide(action: 'approve' | 'reject', threadId: string): Promise<void> {
  const response = await api(base, `/api/threads/${action}`, {
    method: 'POST',
    cookie: admin,
    body: { thread_id: threadId },
  });
  expect(response.status).toBe(200);
}

const byAuthor = (name: string) => (thread: { handle: string }) => thread.handle === `@${name}`;

test('anyone signed in, invited or not, sees the posts the catalogue holds of theirs, each status in words', async () => {
  expect(AUTHOR).not.toBe('');
  expect((await api(base, '/api/authors/me')).status).toBe(401);
  await refresh();
  const queued = (await allPending(base, admin)).filter(byAuthor(AUTHOR));
  expect(queued.length).toBeGreaterThan(0);
  const [first, second] = queued;
  if (first) await decide('approve', first.id);
  if (second) await decide('reject', second.id);

  // The author never asked for an invite.
  const author = await signIn(base, AUTHOR);
  const mine = await overview(author);
  expect(mine).toMatchObject({ threads_username: AUTHOR, opted_out: false, opted_out_at: null });
  expect(new Set(mine.posts.map((p) => p.id))).toEqual(new Set(queued.map((t) => t.id)));
  const statusOf = (id: string | undefined) => mine.posts.find((p) => p.id === id);
  expect(statusOf(first?.id)).toMatchObject({
    status: 'approved',
    status_text: AUTHOR_STATUS_TEXT.approved,
    restores_to: null,
  });
  if (second) expect(statusOf(second.id)?.status_text).toBe(AUTHOR_STATUS_TEXT.rejected);
  for (const p of mine.posts) expect(p.permalink).toContain(`/@${AUTHOR}/post/`);

  // Someone else holds none of these.
  const other = await overview(await signIn(base, 'nobody_here'));
  expect(other.posts).toEqual([]);
});

test("'Remove this post' takes an approved post out of the catalogue and republishes; 'Restore' brings it back; both audited", async () => {
  await refresh();
  const [queued] = (await allPending(base, admin)).filter(byAuthor(AUTHOR));
  if (!queued) throw new Error('the author has no queued post');
  await decide('approve', queued.id);
  // A member keeps it as a gem.
  const alice = await approvedMember(base, 'alice');
  expect((await api(base, `/api/user/gems/${queued.id}`, { method: 'PUT', cookie: alice })).status).toBe(200);
  const gemIds = async () =>
    ((await (await api(base, '/api/user/gems', { cookie: alice })).json()) as GemList).cards.map((c) => c.id);
  expect(await gemIds()).toEqual([queued.id]);
  changes.length = 0;
  const author = await signIn(base, AUTHOR);

  const removed = await post(author, `/api/authors/me/posts/${queued.id}/remove`);
  expect(removed.status).toBe(200);
  const { post: gone } = (await removed.json()) as AuthorPostResult;
  expect(gone).toMatchObject({
    id: queued.id,
    status: 'removed',
    status_text: AUTHOR_STATUS_TEXT.removed,
    restores_to: AUTHOR_STATUS_TEXT.approved,
  });
  // The same announcement an approval makes: the export and the site rebuild follow it.
  expect(changes).toEqual(['threads']);
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.id, queued.id));
  expect(row).toMatchObject({ status: 'removed', statusBeforeRemoval: 'approved' });
  expect(await auditRows('author.remove')).toEqual([
    expect.objectContaining({ subject: queued.id, details: { from: 'approved' } }),
  ]);
  // Gone from gem lists the way a post hidden at the source is; the gem row waits for a restore.
  expect(await gemIds()).toEqual([]);

  // Twice is refused with a reason; so is restoring what is not removed.
  const again = await post(author, `/api/authors/me/posts/${queued.id}/remove`);
  expect(again.status).toBe(409);
  expect(await detail(again)).toBe('This post is already removed.');

  const restored = await post(author, `/api/authors/me/posts/${queued.id}/restore`);
  expect(restored.status).toBe(200);
  expect(((await restored.json()) as AuthorPostResult).post).toMatchObject({
    status: 'approved',
    restores_to: null,
  });
  expect(changes).toEqual(['threads', 'threads']);
  const [back] = await db.select().from(threads).where(eq(threads.id, queued.id));
  expect(back).toMatchObject({ status: 'approved', statusBeforeRemoval: null });
  expect(await auditRows('author.restore')).toEqual([
    expect.objectContaining({ subject: queued.id, details: { to: 'approved' } }),
  ]);
  expect(await gemIds()).toEqual([queued.id]);
  const twice = await post(author, `/api/authors/me/posts/${queued.id}/restore`);
  expect(twice.status).toBe(409);
  expect(await detail(twice)).toBe('This post is not removed.');
});

test('only the author may remove or restore a post, and only by a valid id from our own pages', async () => {
  await refresh();
  const [queued] = (await allPending(base, admin)).filter(byAuthor(AUTHOR));
  if (!queued) throw new Error('the author has no queued post');
  const stranger = await signIn(base, OTHER);
  const refused = await post(stranger, `/api/authors/me/posts/${queued.id}/remove`);
  expect(refused.status).toBe(404);
  expect(await detail(refused)).toBe('The catalogue holds no post of yours with this id.');
  // Even an admin cannot act as the author here.
  expect((await post(admin, `/api/authors/me/posts/${queued.id}/remove`)).status).toBe(404);
  const bad = await post(stranger, '/api/authors/me/posts/not-an-id/remove');
  expect(bad.status).toBe(400);
  expect(await detail(bad)).toBe('id: id must be a thread id');
  expect((await api(base, `/api/authors/me/posts/${queued.id}/remove`, { method: 'POST' })).status).toBe(401);

  const author = await signIn(base, AUTHOR);
  const crossSite = await api(base, `/api/authors/me/posts/${queued.id}/remove`, {
    method: 'POST',
    cookie: author,
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  });
  expect(crossSite.status).toBe(403);
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.id, queued.id));
  expect(row?.status).toBe('pending');
  expect(await auditRows('author.remove')).toEqual([]);
});

test(
  "'Never curate me' empties the queue of the author's posts and keeps later search results out; opting in again is recorded",
  { tags: ['engine'] },
  async () => {
    const author = await signIn(base, AUTHOR);
    const optOut = await post(author, '/api/authors/me/opt-out');
    expect(optOut.status).toBe(200);
    expect((await optOut.json()) as AuthorOptOutResult).toEqual({ opted_out: true, removed_from_queue: 0 });
    const { db } = await testDatabase();
    expect(await db.select().from(authorOptOuts)).toEqual([
      expect.objectContaining({ threadsUserId: simulatedUserId(AUTHOR), username: AUTHOR }),
    ]);

    // The admin's run: other authors' posts arrive, none of the opted-out author's.
    const run = await refresh();
    expect(run.status).toBe('succeeded');
    const queue = await allPending(base, admin);
    expect(queue.filter(byAuthor(OTHER)).length).toBeGreaterThan(0);
    expect(queue.filter(byAuthor(AUTHOR))).toEqual([]);
    expect(await db.select().from(threads).where(eq(threads.username, AUTHOR))).toEqual([]);

    // Opting out twice changes nothing and is recorded once.
    expect((await (await post(author, '/api/authors/me/opt-out')).json()) as AuthorOptOutResult).toEqual({
      opted_out: true,
      removed_from_queue: 0,
    });
    expect(await auditRows('author.opt_out')).toHaveLength(1);
    expect((await overview(author)).opted_out).toBe(true);

    const optIn = await api(base, '/api/authors/me/opt-out', { method: 'DELETE', cookie: author });
    expect(optIn.status).toBe(200);
    expect((await optIn.json()) as AuthorOptOutResult).toEqual({ opted_out: false, removed_from_queue: 0 });
    expect(await auditRows('author.opt_in')).toEqual([
      expect.objectContaining({ subject: simulatedUserId(AUTHOR), details: { username: AUTHOR } }),
    ]);
    expect(await db.select().from(authorOptOuts)).toEqual([]);
    expect((await overview(author)).opted_out).toBe(false);
  },
);

test("opting out takes the author's waiting posts out of the queue (restorable); approved ones stay", async () => {
  await refresh();
  const queued = (await allPending(base, admin)).filter(byAuthor(AUTHOR));
  const [approved, ...waiting] = queued;
  if (!approved || waiting.length === 0) throw new Error('the author needs two queued posts');
  await decide('approve', approved.id);

  const author = await signIn(base, AUTHOR);
  const optOut = await post(author, '/api/authors/me/opt-out');
  expect((await optOut.json()) as AuthorOptOutResult).toEqual({
    opted_out: true,
    removed_from_queue: waiting.length,
  });
  expect((await allPending(base, admin)).filter(byAuthor(AUTHOR))).toEqual([]);
  const { db } = await testDatabase();
  const rows = await db
    .select()
    .from(threads)
    .where(
      inArray(
        threads.id,
        waiting.map((t) => t.id),
      ),
    );
  expect(rows.every((row) => row.status === 'removed' && row.statusBeforeRemoval === 'pending')).toBe(true);
  const [audit] = await auditRows('author.opt_out');
  expect(audit?.details).toMatchObject({ username: AUTHOR });
  expect(new Set(audit?.details.removed_from_queue as string[])).toEqual(new Set(waiting.map((t) => t.id)));
  const mine = await overview(author);
  expect(mine.posts.find((p) => p.id === approved.id)?.status).toBe('approved');

  // A restored post goes back to the queue, where the admin sees the author's choices.
  const restoredId = waiting[0]?.id ?? '';
  expect((await post(author, `/api/authors/me/posts/${restoredId}/restore`)).status).toBe(200);
  const [item] = (await allPending(base, admin)).filter(byAuthor(AUTHOR));
  expect(item).toMatchObject({
    id: restoredId,
    author_opted_out: true,
    author_removed_count: waiting.length - 1,
  });
  const [otherItem] = (await allPending(base, admin)).filter(byAuthor(OTHER));
  expect(otherItem).toMatchObject({ author_opted_out: false, author_removed_count: 0 });
});

test("a member's submission of an opted-out author's post is refused with a clear detail", async () => {
  const author = await signIn(base, AUTHOR);
  await post(author, '/api/authors/me/opt-out');
  const alice = await approvedMember(base, 'alice');
  const submit = (url: string) =>
    api(base, '/api/dashboard/manual-submission', {
      method: 'POST',
      cookie: alice,
      body: { thread_url: url },
    });
  const refused = await submit(`https://www.threads.com/@${AUTHOR.toUpperCase()}/post/OptOut1x`);
  expect(refused.status).toBe(403);
  expect(await detail(refused)).toBe(OPTED_OUT_SUBMISSION);
  const { db } = await testDatabase();
  expect(await db.select().from(threads).where(eq(threads.shortcode, 'OptOut1x'))).toEqual([]);
  // Another author's post is taken as before.
  expect((await submit(`https://www.threads.com/@${OTHER}/post/OptOut2x`)).status).toBe(201);
});

test('an opt-out follows the author to a new username at their next sign-in', async () => {
  const author = await signIn(base, AUTHOR);
  await post(author, '/api/authors/me/opt-out');
  const { db } = await testDatabase();
  // The simulated account keeps its id; Threads reports the username it has now.
  await db.update(authorOptOuts).set({ username: 'old_name' });
  await signIn(base, AUTHOR);
  const [row] = await db.select().from(authorOptOuts);
  expect(row?.username).toBe(AUTHOR);
});
