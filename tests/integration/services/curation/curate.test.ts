import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  ownThreadsSummary,
  type CurationRunSummary,
  type ReviewThread,
} from '../../../../contract/review.ts';
import { auditLog } from '../../../../server/db/schema.ts';
import { ownPostsFor } from '../../../../server/simulator/seed-posts.ts';
import { api, approvedMember, signIn, signInCurator, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';
import { allPending } from '../../helpers/review-queue.ts';

// Curation against the simulated provider over HTTP, on the worker's database (PGlite, or
// PostgreSQL with DATABASE_URL, where the races are real).
let app: FastifyInstance;
let base: string;
let admin: string;

async function start(env: Record<string, string> = {}) {
  ({ app, base } = await startApp({
    CURATION_KEYWORDS: 'typography,accessibility',
    CURATION_TAGS: 'UXDesign',
    ...env,
  }));
  admin = await signInCurator(base);
}

beforeEach(async () => resetDatabase(await testDatabase()));
afterEach(() => app.close());

async function refresh(): Promise<{ status: number; run: CurationRunSummary }> {
  const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  const body = (await response.json()) as { run: CurationRunSummary };
  return { status: response.status, run: body.run };
}

async function pending(): Promise<ReviewThread[]> {
  return allPending(base, admin);
}

test(
  'a run fills the review queue from keyword and tag searches; a second run adds no duplicates',
  { tags: ['engine'] },
  async () => {
    await start();
    const first = await refresh();
    expect(first.status).toBe(200);
    // Each query: RECENT (one page of 100 holds every match) and its daily TOP.
    expect(first.run).toMatchObject({ status: 'succeeded', searches: 6, errors: [] });
    expect(first.run.counts.public_search?.added).toBeGreaterThan(10);
    expect(first.run.counts.public_tag?.added).toBeGreaterThan(5);
    const queue = await pending();
    const added = (first.run.counts.public_search?.added ?? 0) + (first.run.counts.public_tag?.added ?? 0);
    expect(queue).toHaveLength(added);
    expect(new Set(queue.map((thread) => thread.source))).toEqual(new Set(['public_search', 'public_tag']));
    // Newest first by timestamp.
    const times = queue.map((thread) => Date.parse(thread.timestamp ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(queue[0]?.permalink).toMatch(/^https:\/\/www\.threads\.com\/@[a-z0-9._]+\/post\/[A-Za-z0-9_-]+$/);

    // The second run asks RECENT only for posts since the first one searched (none are newer), and
    // skips TOP, which ran less than a day ago.
    const second = await refresh();
    expect(second.run.searches).toBe(3);
    expect(second.run.counts.public_search).toEqual({ seen: 0, added: 0 });
    expect(second.run.counts.public_tag).toEqual({ seen: 0, added: 0 });
    expect(await pending()).toHaveLength(queue.length);

    const runs = await api(base, '/api/admin/runs', { cookie: admin });
    expect(((await runs.json()) as { runs: CurationRunSummary[] }).runs.map((run) => run.id)).toEqual([
      second.run.id,
      first.run.id,
    ]);
  },
);

test('the search budget stops a run short and says so; the next run makes no search', async () => {
  await start({ CURATION_SEARCH_BUDGET: '2' });
  const first = await refresh();
  expect(first.run.searches).toBe(2);
  expect(first.run.status).toBe('partial');
  expect(first.run.errors).toEqual([expect.stringContaining('Search budget reached (2 of 2 in 24 hours)')]);
  const second = await refresh();
  expect(second.run.searches).toBe(0);
  expect(second.run.status).toBe('failed');
});

test('approved members’ own posts arrive and show in their My Threads; counts need threads_manage_insights', async () => {
  await start({ CURATION_KEYWORDS: '', CURATION_TAGS: '' });
  const alice = await approvedMember(base, 'alice');
  const { run } = await refresh();
  const own = ownPostsFor('alice');
  // No insights call was made for them (decision 068): the run counts the calls it skipped.
  expect(run.counts.user_own).toEqual({ seen: own.length, added: own.length, insights_skipped: own.length });
  const response = await api(base, '/api/user/threads', { cookie: alice });
  const threads = ((await response.json()) as { threads: ReviewThread[] }).threads;
  expect(threads).toHaveLength(own.length);
  expect(threads.every((thread) => thread.source === 'user_own')).toBe(true);
  // Members sign in with threads_basic only (decision 024): insights need threads_manage_insights
  // (threads-api.md section 4), so their posts come without likes and replies.
  expect(threads.every((thread) => thread.likes === null && thread.replies === null)).toBe(true);
  // Each says where it stands: the dashboard counts those in the catalogue as the profile does.
  expect(new Set(threads.map((thread) => thread.status))).toEqual(new Set(['pending']));
  const [first] = threads;
  if (!first) throw new Error('alice has no threads');
  await api(base, '/api/threads/approve', { method: 'POST', cookie: admin, body: { thread_id: first.id } });
  const after = (
    (await (await api(base, '/api/user/threads', { cookie: alice })).json()) as {
      threads: ReviewThread[];
    }
  ).threads;
  expect(after.find((thread) => thread.id === first.id)?.status).toBe('approved');
  expect(ownThreadsSummary(after.flatMap((thread) => (thread.status ? [thread.status] : [])))).toBe(
    `${own.length} threads of yours: 1 in the catalogue, ${own.length - 1} waiting for review`,
  );
  // Another member sees only their own.
  const bob = await signIn(base, 'bob');
  expect(await (await api(base, '/api/user/threads', { cookie: bob })).json()).toEqual({ threads: [] });
});

test(
  '20 simultaneous approvals give one decision and one audit row; the rest get 409',
  { tags: ['engine'] },
  async () => {
    await start({ CURATION_TAGS: '' });
    await refresh();
    const [thread] = await pending();
    if (!thread) throw new Error('the queue is empty');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(base, i % 2 ? '/api/threads/approve' : '/api/threads/reject', {
          method: 'POST',
          cookie: admin,
          body: { thread_id: thread.id },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const { db } = await testDatabase();
    const audit = await db.select().from(auditLog).where(eq(auditLog.subject, thread.id));
    expect(audit).toHaveLength(1);
    expect((await pending()).some((item) => item.id === thread.id)).toBe(false);

    const member = await signIn(base, 'not_admin');
    const refused = await api(base, '/api/threads/approve', {
      method: 'POST',
      cookie: member,
      body: { thread_id: thread.id },
    });
    expect(refused.status).toBe(403);
    const bad = await api(base, '/api/threads/approve', {
      method: 'POST',
      cookie: admin,
      body: { thread_id: 'x' },
    });
    expect(bad.status).toBe(400);
  },
);

test(
  'two runs started at once: one runs, the other is told one is in progress',
  { tags: ['engine'] },
  async () => {
    await start();
    const answers = await Promise.all([refresh(), refresh()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const runs = await api(base, '/api/admin/runs', { cookie: admin });
    expect(((await runs.json()) as { runs: unknown[] }).runs).toHaveLength(1);
  },
);
