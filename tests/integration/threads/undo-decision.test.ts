import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ModerationLogPage } from '../../../contract/moderation-log.ts';
import type { UndoDecisionResult } from '../../../contract/review-undo.ts';
import { auditLog, catalogueChanges, gems, generatedPosts, threads } from '../../../server/db/schema.ts';
import { createCatalogueRepository } from '../../../server/repositories/catalogue.ts';
import { createThreadsRepository } from '../../../server/repositories/threads.ts';
import { api, approvedMember, signIn, signInCurator, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { submitAndApprove } from '../helpers/generated-posts.ts';
import { allPending } from '../helpers/review-queue.ts';

// Undo of a decision (decision 047) over real HTTP on the worker's database: everything an approval
// or a rejection did is taken back in one transaction, or nothing is, with a 409 that says why.
let app: FastifyInstance;
let base: string;
let admin: string;

const post = (path: string, body: unknown, cookie = admin) =>
  api(base, `/api/threads/${path}`, { method: 'POST', cookie, body });
const undo = (ids: string[], cookie = admin) => post('undo', { thread_ids: ids }, cookie);
const detail = async (response: Response) => ((await response.json()) as { detail: string }).detail;

async function seed(count: number): Promise<string[]> {
  const { db } = await testDatabase();
  await createThreadsRepository(db).upsertFound(
    Array.from({ length: count }, (_, i) => ({
      shortcode: `U${i}`,
      source: 'public_search' as const,
      query: 'typography',
      username: `author${i}`,
      text: `Thread ${i}`,
      permalink: `https://www.threads.com/@author${i}/post/U${i}`,
      postedAt: new Date(Date.UTC(2026, 9, 1, 12, i)),
    })),
  );
  return (await allPending(base, admin)).map((thread) => thread.id);
}

async function statusOf(id: string) {
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.id, id));
  return row;
}

async function auditActions(id: string): Promise<string[]> {
  const { db } = await testDatabase();
  const rows = await db.select().from(auditLog).where(eq(auditLog.subject, id)).orderBy(auditLog.id);
  return rows.map((row) => row.action);
}

/** Whether the public moderation log (first page) lists the thread: it reads decided threads. */
async function onModerationLog(id: string): Promise<boolean> {
  const response = await api(base, '/api/moderation');
  expect(response.status).toBe(200);
  const body = (await response.json()) as ModerationLogPage;
  return body.entries.some((entry) => entry.id === id);
}

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({
    CURATION_KEYWORDS: '',
    CURATION_TAGS: '',
    ADMIN_THREADS_USERNAMES: 'admin,second_admin',
  }));
  admin = await signIn(base, 'admin');
});
afterEach(() => app.close());

test('approve then undo: pending again, out of the catalogue like a removal, gems dropped, logs true', async () => {
  const [id = ''] = await seed(2);
  const { db } = await testDatabase();
  expect((await post('approve', { thread_id: id })).status).toBe(200);
  expect((await createCatalogueRepository(db).listApproved()).map((row) => row.id)).toContain(id);
  expect(await onModerationLog(id)).toBe(true);
  const reader = await approvedMember(base, 'gem_reader');
  expect((await api(base, `/api/user/gems/${id}`, { method: 'PUT', cookie: reader })).status).toBeLessThan(
    300,
  );
  const [{ seq: before = 0 } = {}] = await db
    .select({ seq: sql<number>`coalesce(max(${catalogueChanges.seq}), 0)::int` })
    .from(catalogueChanges);

  const response = await undo([id]);
  expect(response.status).toBe(200);
  expect((await response.json()) as UndoDecisionResult).toEqual({ undone: [id] });

  const row = await statusOf(id);
  expect(row?.status).toBe('pending');
  expect(row?.decidedAt).toBeNull();
  expect((await allPending(base, admin)).map((thread) => thread.id)).toContain(id);
  expect((await createCatalogueRepository(db).listApproved()).map((row) => row.id)).not.toContain(id);
  // The change log has it leaving the catalogue, as a removal: the next export is a full one.
  const changes = await db
    .select()
    .from(catalogueChanges)
    .where(and(eq(catalogueChanges.threadId, id), sql`${catalogueChanges.seq} > ${before}`));
  expect(changes.map((change) => change.wasApproved)).toContain(true);
  expect(await db.select().from(gems).where(eq(gems.threadId, id))).toEqual([]);
  // Decided: the public log drops the entry; the audit log keeps the decision and records the undo.
  expect(await onModerationLog(id)).toBe(false);
  expect(await auditActions(id)).toEqual(['thread.approve', 'thread.undo']);
  const [entry] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subject, id), eq(auditLog.action, 'thread.undo')));
  expect(entry?.details).toMatchObject({ undid: 'thread.approve', gems_dropped: 1 });

  // Undone once: a second undo finds nothing to take back.
  const again = await undo([id]);
  expect(again.status).toBe(409);
  expect(await detail(again)).toMatch(/not decided/);
});

test('reject then undo: pending, the reason gone, off the public log', async () => {
  const [id = ''] = await seed(1);
  expect((await post('reject', { thread_id: id, reason: 'Off topic' })).status).toBe(200);
  expect(await onModerationLog(id)).toBe(true);
  expect((await undo([id])).status).toBe(200);
  const row = await statusOf(id);
  expect([row?.status, row?.decisionReason, row?.decidedAt]).toEqual(['pending', null, null]);
  expect(await onModerationLog(id)).toBe(false);
  expect(await auditActions(id)).toEqual(['thread.reject', 'thread.undo']);
  // Pending again, it can be decided anew.
  expect((await post('approve', { thread_id: id })).status).toBe(200);
});

test('an undone approval of a submission drops its generated post; a published one refuses the undo', async () => {
  const curator = await signInCurator(base);
  const member = await approvedMember(base, 'submitter');
  const { db } = await testDatabase();
  const first = 'https://www.threads.com/@someone/post/UNDOpost1';
  await submitAndApprove(base, member, curator, first);
  const [queued] = await db.select().from(generatedPosts);
  expect(queued?.status).toBe('pending');
  const response = await undo([queued?.threadId ?? ''], curator);
  expect(response.status).toBe(200);
  expect(await db.select().from(generatedPosts)).toEqual([]);
  expect((await statusOf(queued?.threadId ?? ''))?.status).toBe('pending');

  const second = 'https://www.threads.com/@someone/post/UNDOpost2';
  await submitAndApprove(base, member, curator, second);
  expect((await app.publishGeneratedPosts()).ran).toBe(true);
  const [published] = await db.select().from(generatedPosts);
  expect(published?.status).toBe('published');
  const refused = await undo([published?.threadId ?? ''], curator);
  expect(refused.status).toBe(409);
  expect(await detail(refused)).toMatch(/already published/);
  expect((await statusOf(published?.threadId ?? ''))?.status).toBe('approved');
});

test('a bulk decision is undone in one go; one refused thread undoes none of them', async () => {
  const ids = await seed(5);
  const decided = await post('decide-many', { thread_ids: ids.slice(0, 4), action: 'approve' });
  expect(decided.status).toBe(200);
  // One of them is taken out by its author meanwhile: the whole undo is refused, nothing changes.
  const { db } = await testDatabase();
  await db
    .update(threads)
    .set({ status: 'removed', statusBeforeRemoval: 'approved' })
    .where(eq(threads.id, ids[3] ?? ''));
  const refused = await undo(ids.slice(0, 4));
  expect(refused.status).toBe(409);
  expect(await detail(refused)).toContain(ids[3]);
  expect((await statusOf(ids[0] ?? ''))?.status).toBe('approved');

  const response = await undo(ids.slice(0, 3));
  expect(response.status).toBe(200);
  expect(((await response.json()) as UndoDecisionResult).undone).toEqual(ids.slice(0, 3));
  for (const id of ids.slice(0, 3)) expect((await statusOf(id))?.status).toBe('pending');
});

test('after the window the undo is refused with 409 and nothing changes', async () => {
  const [id = ''] = await seed(1);
  expect((await post('approve', { thread_id: id })).status).toBe(200);
  const { db } = await testDatabase();
  await db
    .update(threads)
    .set({ decidedAt: sql`now() - interval '61 seconds'` })
    .where(eq(threads.id, id));
  const response = await undo([id]);
  expect(response.status).toBe(409);
  expect(await detail(response)).toMatch(/more than 60 seconds ago/);
  expect((await statusOf(id))?.status).toBe('approved');
  expect(await auditActions(id)).toEqual(['thread.approve']);
});

test('a decision another admin made since cannot be undone by the first', async () => {
  const [id = ''] = await seed(1);
  const second = await signIn(base, 'second_admin');
  expect((await post('approve', { thread_id: id })).status).toBe(200);
  // The second admin may not undo the first one's decision...
  const foreign = await undo([id], second);
  expect(foreign.status).toBe(409);
  expect(await detail(foreign)).toMatch(/another admin/);
  // ...and after the first undoes it and the second decides anew, the first's Undo is stale.
  expect((await undo([id])).status).toBe(200);
  expect((await post('reject', { thread_id: id }, second)).status).toBe(200);
  const stale = await undo([id]);
  expect(stale.status).toBe(409);
  expect(await detail(stale)).toMatch(/another admin/);
  expect((await statusOf(id))?.status).toBe('rejected');
});

test('bad input is a 400 with a detail, an unknown thread a 404, a member a 403', async () => {
  const [id = ''] = await seed(1);
  for (const body of [
    {},
    { thread_ids: [] },
    { thread_ids: ['not-a-uuid'] },
    { thread_ids: [id, '\u0000'] },
    { thread_ids: id },
    { thread_ids: [id], extra: 1 },
    { thread_ids: Array.from({ length: 51 }, () => crypto.randomUUID()) },
    [id],
  ]) {
    const response = await post('undo', body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(await detail(response)).toMatch(/\w/);
  }
  const unknown = await undo([crypto.randomUUID()]);
  expect(unknown.status).toBe(404);
  expect(await detail(unknown)).toMatch(/No such thread/);
  const member = await approvedMember(base, 'not_admin');
  expect((await undo([id], member)).status).toBe(403);
});
