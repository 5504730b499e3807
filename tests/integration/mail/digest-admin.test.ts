import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { digestId, isoWeekOf, previousWeek, weekRange, type DigestDraft } from '../../../contract/digest.ts';
import { loadConfig } from '../../../server/config.ts';
import { auditLog, threads } from '../../../server/db/schema.ts';
import { digests } from '../../../server/db/schema-messages.ts';
import { publishDueDigest } from '../../../server/services/digest/publish-digest.ts';
import { api, approvedMember, signInCurator, startApp } from '../auth/helpers.ts';
import { insertThreads, threadRows } from '../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

/** A data folder of its own: config refuses one that holds the project (CI clones it under /tmp). */
const MAIL_TEST_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'ct-mail-test-'));

let app: FastifyInstance;
let base: string;
let admin: string;
/** Last week: what the admin prepares while its digest waits out its hold. */
const last = previousWeek(new Date());

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ SMTP_URL: 'smtp://127.0.0.1:9', DIGEST_SIZE: '3' }));
  admin = await signInCurator(base);
  // Five threads approved last week, a day apart.
  await insertThreads(threadRows(5));
  const { db } = await testDatabase();
  const rows = await db.select({ id: threads.id }).from(threads).orderBy(threads.shortcode);
  const { start } = weekRange(last);
  for (const [index, row] of rows.entries())
    await db
      .update(threads)
      .set({ decidedAt: new Date(start.getTime() + (index + 1) * 86_400_000) })
      .where(eq(threads.id, row.id));
});
afterEach(() => app.close());

async function draft(response?: Response): Promise<DigestDraft> {
  const answer = response ?? (await api(base, '/api/admin/digest', { cookie: admin }));
  expect(answer.status).toBe(200);
  return (await answer.json()) as DigestDraft;
}

const trim = (threadId: string, excluded: boolean) =>
  api(base, '/api/admin/digest/trim', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: threadId, excluded },
  });
const note = (text: string) =>
  api(base, '/api/admin/digest/note', { method: 'PUT', cookie: admin, body: { note: text } });

test('the admin trims last week’s digest and writes its note; the published digest keeps both', async () => {
  const before = await draft();
  expect(before).toMatchObject({
    id: digestId(last),
    note: '',
    excluded: [],
    mail_enabled: true,
    subscribers: 0,
  });
  expect(before.week_start).toBe(weekRange(last).start.toISOString());
  expect(before.threads).toHaveLength(3);
  const [first, second] = before.threads;
  if (!first || !second) throw new Error('an empty digest');

  // Leaving the first out brings the fourth best in; putting it back restores the list.
  const trimmed = await draft(await trim(first.id, true));
  expect(trimmed.threads.map((item) => item.id)).not.toContain(first.id);
  expect(trimmed.threads).toHaveLength(3);
  expect(trimmed.excluded.map((item) => item.id)).toEqual([first.id]);
  expect((await draft(await trim(first.id, false))).excluded).toEqual([]);
  await trim(second.id, true);
  await trim(second.id, true); // twice is still once
  expect((await draft()).excluded.map((item) => item.id)).toEqual([second.id]);

  expect((await draft(await note('  A week of type specimens.  '))).note).toBe('A week of type specimens.');
  const { db } = await testDatabase();
  const actions = await db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.subject, digestId(last)));
  expect(actions.map((row) => row.action).sort()).toEqual([
    'digest.exclude',
    'digest.exclude',
    'digest.exclude',
    'digest.include',
    'digest.note',
  ]);

  // Published once its hold is over: without the trimmed thread, with the note.
  const due = new Date(weekRange(last).end.getTime() + 25 * 3_600_000);
  const config = loadConfig({
    SMTP_URL: 'smtp://127.0.0.1:9',
    DIGEST_SIZE: '3',
    DATA_DIR: MAIL_TEST_DATA_DIR,
  });
  expect(await publishDueDigest({ db, config }, due)).toMatchObject({
    id: digestId(last),
    published: true,
    threads: 3,
  });
  const [row] = await db
    .select()
    .from(digests)
    .where(eq(digests.id, digestId(last)));
  expect(row?.threadIds).not.toContain(second.id);
  expect(row?.note).toBe('A week of type specimens.');
  // Then the admin prepares this week's.
  expect((await draft()).id).toBe(digestId(isoWeekOf(new Date())));
});

test('bad trims and notes are 400s naming the field; only an admin may prepare the digest', async () => {
  const badId = await trim('not-a-uuid', true);
  expect(badId.status).toBe(400);
  expect(((await badId.json()) as { detail: string }).detail).toBe('thread_id: must be a thread id');
  for (const text of ['reversed \u202e text', 'nul \u0000', 'x'.repeat(601)]) {
    const response = await note(text);
    expect(response.status, text).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/^note: must/);
  }
  const extra = await api(base, '/api/admin/digest/note', {
    method: 'PUT',
    cookie: admin,
    body: { note: 'fine', sneaky: true },
  });
  expect(extra.status).toBe(400);

  const member = await approvedMember(base, 'reader');
  expect((await api(base, '/api/admin/digest', { cookie: member })).status).toBe(403);
  expect((await api(base, '/api/admin/digest')).status).toBe(401);
  expect((await draft()).note).toBe('');
});
