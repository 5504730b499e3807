import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ManualSubmission } from '../../../contract/submission.ts';
import { threads } from '../../../server/db/schema.ts';
import { api, approvedMember, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' }));
});
afterEach(() => app.close());

async function submitAs(cookie: string, link: string): Promise<string> {
  const response = await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie,
    body: { thread_url: link },
  });
  expect(response.status).toBe(201);
  const { db } = await testDatabase();
  const shortcode = link.split('/').at(-1) ?? '';
  const [thread] = await db.select().from(threads).where(eq(threads.shortcode, shortcode));
  if (!thread) throw new Error('no thread for the submission');
  return thread.id;
}

test("a member's submissions carry when they were decided and, for a rejection, the admin's reason", async () => {
  const member = await approvedMember(base, 'erin_member');
  const admin = await signIn(base, 'admin');
  const rejectedLink = 'https://www.threads.com/@writer/post/Rejected1';
  const approvedLink = 'https://www.threads.com/@writer/post/Approved1';
  const silentLink = 'https://www.threads.com/@writer/post/Silent1';
  const waitingLink = 'https://www.threads.com/@writer/post/Waiting1';
  const decisions = [
    [await submitAs(member, rejectedLink), '/api/threads/reject', '  Duplicate of a thread already curated '],
    [await submitAs(member, approvedLink), '/api/threads/approve', undefined],
    [await submitAs(member, silentLink), '/api/threads/reject', undefined],
  ] as const;
  await submitAs(member, waitingLink);
  const before = Date.now();
  for (const [id, path, reason] of decisions) {
    const body = reason === undefined ? { thread_id: id } : { thread_id: id, reason };
    expect((await api(base, path, { method: 'POST', cookie: admin, body })).status).toBe(200);
  }

  const response = await api(base, '/api/dashboard/manual-submissions', { cookie: member });
  expect(response.status).toBe(200);
  const { submissions } = (await response.json()) as { submissions: ManualSubmission[] };
  const byLink = new Map(submissions.map((s) => [s.thread_url, s]));
  expect(byLink.get(rejectedLink)).toMatchObject({
    status: 'rejected',
    decision_reason: 'Duplicate of a thread already curated',
  });
  expect(byLink.get(approvedLink)).toMatchObject({ status: 'approved', decision_reason: null });
  expect(byLink.get(silentLink)).toMatchObject({ status: 'rejected', decision_reason: null });
  expect(byLink.get(waitingLink)).toMatchObject({
    status: 'pending',
    decided_at: null,
    decision_reason: null,
  });
  for (const link of [rejectedLink, approvedLink, silentLink]) {
    const decidedAt = Date.parse(byLink.get(link)?.decided_at ?? '');
    expect(decidedAt, link).toBeGreaterThanOrEqual(before - 1000);
    expect(decidedAt, link).toBeLessThanOrEqual(Date.now() + 1000);
  }

  // Another member does not see the reason of a submission that is not theirs.
  const other = await approvedMember(base, 'fred_member');
  const theirs = await api(base, '/api/dashboard/manual-submissions', { cookie: other });
  expect(((await theirs.json()) as { submissions: ManualSubmission[] }).submissions).toEqual([]);
});
