import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  BULK_DECISION_MAX,
  REVIEW_PAGE_SIZE,
  type BulkDecisionResult,
} from '../../../contract/review-queue.ts';
import { auditLog, generatedPosts, threads } from '../../../server/db/schema.ts';
import { createThreadsRepository, type NewThread } from '../../../server/repositories/threads.ts';
import { api, approvedMember, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { allPending, pendingPage } from '../helpers/review-queue.ts';

// The review queue's pages, filters and order, and bulk decisions, over real HTTP on the worker's
// database. The threads are written straight into the table so every sort key is known.
let app: FastifyInstance;
let base: string;
let admin: string;

const T0 = Date.parse('2026-10-01T12:00:00.000Z');
const SOURCES = ['public_search', 'public_tag', 'user_own'] as const;

/** Thread `i`: three sources in turn, two queries, likes only on own posts, some posted at the same instant. */
function seedThread(i: number, prefix = 'Q'): NewThread {
  const source = SOURCES[i % 3] ?? 'public_search';
  const code = `${prefix}${String(i).padStart(4, '0')}`;
  return {
    shortcode: code,
    source,
    query: source === 'user_own' ? null : i % 2 ? 'typography' : 'UXDesign',
    username: `author${i}`,
    text: `Thread ${i}`,
    permalink: `https://www.threads.com/@author${i}/post/${code}`,
    likes: source === 'user_own' ? (i * 7) % 40 : null,
    // Pairs share a timestamp (ties are broken by id); every tenth has none (created_at stands in).
    postedAt: i % 10 === 9 ? null : new Date(T0 - Math.floor(i / 2) * 60_000),
  };
}

async function seed(count: number, prefix = 'Q') {
  const { db } = await testDatabase();
  await createThreadsRepository(db).upsertFound(
    Array.from({ length: count }, (_, i) => seedThread(i, prefix)),
  );
}

const decideMany = (body: unknown, cookie = admin) =>
  api(base, '/api/threads/decide-many', { method: 'POST', cookie, body });

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: '', CURATION_TAGS: '' }));
  admin = await signIn(base, 'admin');
});
afterEach(() => app.close());

test(
  'pages of 25 follow a cursor without repeats or gaps while threads are decided and added between pages',
  { tags: ['engine'] },
  async () => {
    await seed(70);
    const first = await pendingPage(base, admin);
    expect(first.threads).toHaveLength(REVIEW_PAGE_SIZE);
    expect(first.total).toBe(70);
    expect(first.next_cursor).toEqual(expect.any(String));

    // Between pages: decide some shown threads and some not yet shown, and add newer and older ones.
    const all = await allPending(base, admin);
    const unseen = all.slice(REVIEW_PAGE_SIZE);
    const decidedLater = [unseen[0], unseen[10], unseen[30]].map((thread) => thread?.id ?? '');
    const decidedShown = first.threads.slice(0, 5).map((thread) => thread.id);
    const bulk = await decideMany({ thread_ids: [...decidedShown, ...decidedLater], action: 'reject' });
    expect(bulk.status).toBe(200);
    const { db } = await testDatabase();
    await createThreadsRepository(db).upsertFound([
      { ...seedThread(1000, 'NEW'), postedAt: new Date(T0 + 3_600_000) },
      { ...seedThread(1001, 'OLD'), postedAt: new Date(T0 - 86_400_000) },
    ]);

    const seen = [...first.threads];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await pendingPage(base, admin, { cursor });
      expect(page.total).toBe(70 - 8 + 2);
      seen.push(...page.threads);
      cursor = page.next_cursor;
    }
    const ids = seen.map((thread) => thread.id);
    expect(new Set(ids).size).toBe(ids.length);
    const expected = all.map((thread) => thread.id).filter((id) => !decidedLater.includes(id));
    // The newer thread sorts before the first page (the next visit shows it); the older one comes last.
    expect(ids.filter((id) => all.some((thread) => thread.id === id))).toEqual(expected);
    expect(seen.at(-1)?.handle).toBe('@author1001');
    const times = seen.map((thread) => Date.parse(thread.timestamp ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  },
);

test(
  'filters by source and by keyword or tag; total counts what matches; the queries come with counts',
  { tags: ['engine'] },
  async () => {
    await seed(60);
    const tags = await allPending(base, admin, { source: 'public_tag' });
    expect(tags).toHaveLength(20);
    expect(tags.every((thread) => thread.source === 'public_tag')).toBe(true);
    const typography = await pendingPage(base, admin, { query: 'typography' });
    expect(typography.total).toBe(20);
    expect(typography.threads.every((thread) => thread.query === 'typography')).toBe(true);
    const both = await pendingPage(base, admin, { source: 'public_tag', query: 'typography' });
    expect(both.total).toBe(10);
    expect(both.threads.every((t) => t.source === 'public_tag' && t.query === 'typography')).toBe(true);
    expect(both.next_cursor).toBeNull();
    expect((await pendingPage(base, admin, { source: 'manual_submission' })).total).toBe(0);
    expect(typography.queries).toEqual(
      expect.arrayContaining([
        { source: 'public_search', query: 'typography', count: 10 },
        { source: 'public_search', query: 'UXDesign', count: 10 },
        { source: 'public_tag', query: 'typography', count: 10 },
        { source: 'public_tag', query: 'UXDesign', count: 10 },
      ]),
    );
    expect(typography.queries).toHaveLength(4);
    expect(both.sources).toEqual([
      { source: 'public_search', count: 20 },
      { source: 'public_tag', count: 20 },
      { source: 'user_own', count: 20 },
    ]);
  },
);

test('most liked first: known likes descending, unknown likes last, paged without repeats', async () => {
  await seed(60);
  const liked = await allPending(base, admin, { sort: 'likes' });
  expect(liked).toHaveLength(60);
  expect(new Set(liked.map((thread) => thread.id)).size).toBe(60);
  const likes = liked.map((thread) => thread.likes ?? -1);
  expect(likes).toEqual([...likes].sort((a, b) => b - a));
  expect(liked[0]?.source).toBe('user_own');
  expect(liked.at(-1)?.likes).toBeNull();
});

test('bad query parameters and cursors are refused with a detail', async () => {
  await seed(30);
  const { next_cursor: cursor } = await pendingPage(base, admin);
  for (const query of [
    'source=everything',
    'sort=oldest',
    'cursor=not-a-cursor',
    `cursor=${Buffer.from(JSON.stringify({ sort: 'newest', at: "x'; drop table threads", id: crypto.randomUUID() })).toString('base64url')}`,
    `sort=likes&cursor=${cursor}`,
    'page=2',
    'query=',
    // A NUL cannot reach PostgreSQL (it would answer 500), nor a forged offset of 60 minutes.
    'query=%00',
    'query=type%1B',
    `cursor=${Buffer.from(JSON.stringify({ sort: 'newest', at: '2026-11-23 13:15:04+15:60', id: crypto.randomUUID() })).toString('base64url')}`,
  ]) {
    const response = await api(base, `/api/threads/pending-review?${query}`, { cookie: admin });
    expect(response.status, query).toBe(400);
    expect(((await response.json()) as { detail: string }).detail, query).toMatch(/\w/);
  }
});

test('a bulk decision decides every pending thread in one go and reports those already decided', async () => {
  await seed(12);
  const queue = await allPending(base, admin);
  const ids = queue.slice(0, 6).map((thread) => thread.id);
  const [already, ...rest] = ids;
  expect(
    (await api(base, '/api/threads/approve', { method: 'POST', cookie: admin, body: { thread_id: already } }))
      .status,
  ).toBe(200);

  const rejected = await decideMany({ thread_ids: ids, action: 'reject', reason: ' Promotional or spam ' });
  expect(rejected.status).toBe(200);
  const result = (await rejected.json()) as BulkDecisionResult;
  expect(result.decided).toEqual(rest);
  expect(result.already_decided).toEqual([{ thread_id: already, status: 'approved' }]);

  const { db } = await testDatabase();
  const rows = await db.select().from(threads).where(inArray(threads.id, rest));
  expect(rows.map((row) => [row.status, row.decisionReason])).toEqual(
    rest.map(() => ['rejected', 'Promotional or spam']),
  );
  const audit = await db.select().from(auditLog).where(inArray(auditLog.subject, rest));
  expect(audit).toHaveLength(rest.length);
  expect(
    audit.every((row) => row.action === 'thread.reject' && row.details.reason === 'Promotional or spam'),
  ).toBe(true);
  expect((await pendingPage(base, admin)).total).toBe(12 - 6);
});

test('one unknown id refuses the whole batch; nothing in it is decided', async () => {
  await seed(5);
  const ids = (await allPending(base, admin)).map((thread) => thread.id);
  const unknown = crypto.randomUUID();
  const response = await decideMany({ thread_ids: [...ids.slice(0, 3), unknown], action: 'approve' });
  expect(response.status).toBe(404);
  expect(((await response.json()) as { detail: string }).detail).toContain(unknown);
  const { db } = await testDatabase();
  const rows = await db.select().from(threads).where(inArray(threads.id, ids));
  expect(rows.every((row) => row.status === 'pending')).toBe(true);
  expect(await db.select().from(auditLog).where(inArray(auditLog.subject, ids))).toHaveLength(0);
});

test('bulk approving a manual submission queues its generated post, as a single approval does', async () => {
  const alice = await approvedMember(base, 'alice');
  const link = 'https://www.threads.com/t/BULK0001';
  const submitted = await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie: alice,
    body: { thread_url: link, notes: 'Lovely kerning notes.' },
  });
  expect(submitted.status).toBe(201);
  await seed(3);
  const queue = await allPending(base, admin);
  const submission = queue.find((thread) => thread.permalink === link);
  expect(submission).toMatchObject({ source: 'manual_submission', notes: 'Lovely kerning notes.' });
  const response = await decideMany({ thread_ids: queue.map((thread) => thread.id), action: 'approve' });
  expect(((await response.json()) as BulkDecisionResult).decided).toHaveLength(4);
  const { db } = await testDatabase();
  const posts = await db
    .select()
    .from(generatedPosts)
    .where(eq(generatedPosts.threadId, submission?.id ?? ''));
  expect(posts).toHaveLength(1);
  expect(posts[0]?.content).toBe(`Curated pick from a Threads member\n\n${link}`);
});

test('bulk input is checked: a reason on approval, too many ids, no ids, not ids', async () => {
  await seed(2);
  const [id] = (await allPending(base, admin)).map((thread) => thread.id);
  for (const body of [
    { thread_ids: [id], action: 'approve', reason: 'great' },
    {
      thread_ids: Array.from({ length: BULK_DECISION_MAX + 1 }, () => crypto.randomUUID()),
      action: 'reject',
    },
    { thread_ids: [], action: 'reject' },
    { thread_ids: ['1'], action: 'reject' },
    { thread_ids: [id], action: 'hide' },
    { thread_ids: [id], action: 'reject', reason: 'x'.repeat(301) },
  ]) {
    const response = await decideMany(body);
    expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
  }
  expect((await pendingPage(base, admin)).total).toBe(2);
});

test('the queue and bulk decisions are for admins only', async () => {
  await seed(2);
  const [id] = (await allPending(base, admin)).map((thread) => thread.id);
  const member = await approvedMember(base, 'mallory');
  expect((await api(base, '/api/threads/pending-review', { cookie: member })).status).toBe(403);
  expect((await decideMany({ thread_ids: [id], action: 'approve' }, member)).status).toBe(403);
  expect((await api(base, '/api/threads/pending-review')).status).toBe(401);
  expect((await pendingPage(base, admin)).total).toBe(2);
});

test('a single rejection answers with the reason as stored', async () => {
  await seed(1);
  const [thread] = (await pendingPage(base, admin)).threads;
  const response = await api(base, '/api/threads/reject', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread?.id, reason: '  Duplicate of a thread already curated  ' },
  });
  expect(await response.json()).toEqual({
    success: true,
    status: 'rejected',
    reason: 'Duplicate of a thread already curated',
  });
});
