import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { digestId, previousWeek, weekRange, type DigestDraft } from '../../../contract/digest.ts';
import { loadConfig } from '../../../server/config.ts';
import { generatedPosts, threads } from '../../../server/db/schema.ts';
import { DIGEST_POST_DELAY_MS, publishDueDigest } from '../../../server/services/digest/publish-digest.ts';
import { composeDigestPost } from '../../../server/services/publishing/publish-generated-posts.ts';
import { api, signInCurator, startApp } from '../auth/helpers.ts';
import { generatedPosts as listedPosts } from '../helpers/generated-posts.ts';
import { insertThreads, threadRows } from '../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// Decision 060: with DIGEST_THREADS_POST, a published digest's link is posted on the curator's
// account through the generated posts' publisher, once, and the Digest tab shows how it went.
const MAIL_TEST_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'ct-digest-post-test-'));
/**
 * The newest week whose digest post may go out now: its post waits DIGEST_POST_DELAY_MS after the
 * week ends, so in a week's first minutes it is the week before (CI once ran this at 00:04 on a Monday).
 */
function lastDueWeek(now: Date) {
  const week = previousWeek(now);
  if (weekRange(week).end.getTime() + DIGEST_POST_DELAY_MS < now.getTime()) return week;
  return previousWeek(weekRange(week).start);
}
const last = lastDueWeek(new Date());
const id = digestId(last);
/** Last week's hold (0 hours here) is over a moment after it ended. */
const due = new Date(weekRange(last).end.getTime() + 1);

let app: FastifyInstance;
let base: string;
let admin: string;

const settings = (threadsPost: boolean) => ({
  DIGEST_SIZE: '3',
  DIGEST_HOLD_HOURS: '0',
  DIGEST_THREADS_POST: String(threadsPost),
  DATA_DIR: MAIL_TEST_DATA_DIR,
});

async function start(threadsPost: boolean, approvedLastWeek: number): Promise<void> {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp(settings(threadsPost)));
  admin = await signInCurator(base);
  if (approvedLastWeek === 0) return;
  await insertThreads(threadRows(approvedLastWeek));
  const { db } = await testDatabase();
  const rows = await db.select({ id: threads.id }).from(threads).orderBy(threads.shortcode);
  for (const [index, row] of rows.entries())
    await db
      .update(threads)
      .set({ decidedAt: new Date(weekRange(last).start.getTime() + (index + 1) * 3_600_000) })
      .where(eq(threads.id, row.id));
}

async function publish() {
  const { db } = await testDatabase();
  return publishDueDigest({ db, config: loadConfig(settings(true)) }, due);
}

async function threadsPost(): Promise<DigestDraft['threads_post']> {
  const answer = await api(base, '/api/admin/digest', { cookie: admin });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as DigestDraft).threads_post;
}

async function digestPosts() {
  const { db } = await testDatabase();
  return db.select().from(generatedPosts).where(isNotNull(generatedPosts.digestId));
}

beforeEach(() => start(true, 4));
afterEach(() => app.close());

test("a published digest queues one post of its link; the curator's account publishes it, once", async () => {
  expect(await threadsPost()).toEqual({ enabled: true, last: null });
  expect(await publish()).toMatchObject({ id, published: true, threads: 3, threadsPost: true });
  // Another run, or another instance, publishes and posts nothing more.
  expect(await publish()).toMatchObject({ id, published: false, threadsPost: false });

  const [post, ...more] = await digestPosts();
  expect(more).toEqual([]);
  const link = new URL(`/digest/${id}`, loadConfig(settings(true)).publicUrl).href;
  expect(post?.content).toBe(composeDigestPost(last, 3, link));
  expect(post?.content.endsWith(`\n\n${link}`)).toBe(true);
  expect(post?.threadId).toBeNull();
  // It waits for the digest's page to be published before Threads fetches the link's preview.
  expect(post?.nextAttemptAt.getTime()).toBe(due.getTime() + DIGEST_POST_DELAY_MS);
  // The Manual Submissions tab lists posts about submissions only.
  expect(await listedPosts(base, admin)).toEqual([]);
  expect(await threadsPost()).toEqual({
    enabled: true,
    last: { digest_id: id, status: 'pending', thread_url: null, error: null },
  });

  expect(await app.publishGeneratedPosts()).toEqual({
    ran: true,
    result: { published: 1, postponed: 0, retrying: 0, failed: 0 },
  });
  const { last: posted } = await threadsPost();
  expect(posted).toMatchObject({ digest_id: id, status: 'published', error: null });
  expect(posted?.thread_url).toMatch(/^https:\/\/www\.threads\.com\/@admin\/post\/SIM[\w-]+$/);
  expect(await app.publishGeneratedPosts()).toEqual({
    ran: true,
    result: { published: 0, postponed: 0, retrying: 0, failed: 0 },
  });
});

test(
  'a post names either a thread or a digest: the database refuses both and neither',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const [thread] = await db.select({ id: threads.id }).from(threads).limit(1);
    if (!thread) throw new Error('no thread');
    for (const subject of [{ threadId: thread.id, digestId: id }, {}])
      await expect(db.insert(generatedPosts).values({ ...subject, content: 'x' })).rejects.toThrow();
  },
);

test('without DIGEST_THREADS_POST, or for an empty week, no post is queued', async () => {
  await app.close();
  await start(false, 4);
  expect(await threadsPost()).toEqual({ enabled: false, last: null });
  const { db } = await testDatabase();
  const off = await publishDueDigest({ db, config: loadConfig(settings(false)) }, due);
  expect(off).toMatchObject({ published: true, threads: 3, threadsPost: false });
  expect(await digestPosts()).toEqual([]);

  await app.close();
  await start(true, 0);
  expect(await publish()).toMatchObject({ published: true, threads: 0, threadsPost: false });
  expect(await digestPosts()).toEqual([]);
});
