import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { REJECTION_REASON_MAX } from '../../../contract/moderation.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { auditLog, threads } from '../../../server/db/schema.ts';
import { api, signInCurator, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { pendingPage } from '../helpers/review-queue.ts';

let app: FastifyInstance;
let base: string;
let admin: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' }));
  admin = await signInCurator(base);
  expect((await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin })).status).toBe(200);
});
afterEach(() => app.close());

async function firstPending(): Promise<ReviewThread> {
  const [thread] = (await pendingPage(base, admin)).threads;
  if (!thread) throw new Error('the queue is empty');
  return thread;
}

test('a rejection keeps its reason, trimmed, on the thread and in the audit log', async () => {
  const thread = await firstPending();
  const response = await api(base, '/api/threads/reject', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread.id, reason: '  Not about design or UI ' },
  });
  expect(response.status).toBe(200);
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.id, thread.id));
  expect(row?.status).toBe('rejected');
  expect(row?.decisionReason).toBe('Not about design or UI');
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.subject, thread.id));
  expect(audit?.details).toEqual({ reason: 'Not about design or UI' });
});

test('a reason on an approval, or one too long, is refused and decides nothing', async () => {
  const thread = await firstPending();
  const withReason = await api(base, '/api/threads/approve', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread.id, reason: 'great' },
  });
  expect(withReason.status).toBe(400);
  expect(((await withReason.json()) as { detail: string }).detail).toBe('Only a rejection takes a reason.');
  const tooLong = await api(base, '/api/threads/reject', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread.id, reason: 'é'.repeat(REJECTION_REASON_MAX + 1) },
  });
  expect(tooLong.status).toBe(400);
  expect(((await tooLong.json()) as { detail: string }).detail).toContain(
    `${REJECTION_REASON_MAX} characters`,
  );
  expect((await firstPending()).id).toBe(thread.id);
});

test.each([
  ['a right-to-left override (it shows the text reversed)', 'spam \u202Emaerc eci'],
  ['a NUL, which PostgreSQL cannot store', 'nul \u0000 inside'],
  ['a lone surrogate', 'half \uD83D a face'],
  ['an escape character', 'bell \u001B[31m'],
])('a reason with %s is a 400 that says why, and decides nothing', async (_, reason) => {
  const thread = await firstPending();
  for (const [path, body] of [
    ['/api/threads/reject', { thread_id: thread.id, reason }],
    ['/api/threads/decide-many', { thread_ids: [thread.id], action: 'reject', reason }],
  ] as const) {
    const response = await api(base, path, { method: 'POST', cookie: admin, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      detail: expect.stringContaining('The reason cannot contain control or text-direction characters.'),
    });
  }
  expect((await firstPending()).id).toBe(thread.id);
});

test('line breaks and tabs in a reason are kept', async () => {
  const thread = await firstPending();
  const response = await api(base, '/api/threads/reject', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread.id, reason: 'Off topic:\n\tan ad' },
  });
  expect(response.status).toBe(200);
});
