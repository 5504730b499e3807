import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ReviewThread } from '../../../contract/review.ts';
import { imageKey, linkKey, textKey } from '../../../server/db/queue-keys.ts';
import { threads } from '../../../server/db/schema.ts';
import { createThreadsRepository, type NewThread } from '../../../server/repositories/threads.ts';
import { api, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { allPending, pendingPage } from '../helpers/review-queue.ts';

// The review queue's signals (issue 22, decision 055) over real HTTP on the worker's database: the
// author's history, near-duplicates already decided, the learned score, its order and the filters.
let app: FastifyInstance;
let base: string;
let admin: string;
let serial = 0;

type Seed = Partial<NewThread> & { status?: 'pending' | 'approved' | 'rejected' };

/** Writes threads straight into the table, decided ones with a decision time, and answers their ids. */
async function seed(rows: Seed[]): Promise<string[]> {
  const { db } = await testDatabase();
  const made = rows.map(({ status, ...row }) => {
    serial += 1;
    const code = `S${String(serial).padStart(5, '0')}`;
    return {
      status: status ?? 'pending',
      row: {
        shortcode: code,
        source: 'public_search' as const,
        query: 'design',
        username: `author${serial}`,
        text: `Thread number ${serial}`,
        permalink: `https://www.threads.com/@a/post/${code}`,
        postedAt: new Date(Date.UTC(2026, 9, 1) - serial * 60_000),
        ...row,
      },
    };
  });
  await createThreadsRepository(db).upsertFound(made.map((entry) => entry.row));
  const stored = await db
    .select({ id: threads.id, shortcode: threads.shortcode })
    .from(threads)
    .where(
      inArray(
        threads.shortcode,
        made.map((entry) => entry.row.shortcode),
      ),
    );
  const idOf = new Map(stored.map((row) => [row.shortcode, row.id]));
  for (const [status, decided] of [
    ['approved', made.filter((entry) => entry.status === 'approved')],
    ['rejected', made.filter((entry) => entry.status === 'rejected')],
  ] as const) {
    if (decided.length === 0) continue;
    await db
      .update(threads)
      .set({ status, decidedAt: new Date() })
      .where(
        inArray(
          threads.shortcode,
          decided.map((entry) => entry.row.shortcode),
        ),
      );
  }
  return made.map((entry) => idOf.get(entry.row.shortcode) ?? '');
}

const find = (list: ReviewThread[], id: string | undefined) => {
  const thread = list.find((candidate) => candidate.id === id);
  if (!thread?.signals) throw new Error(`no signals for ${id}`);
  return { ...thread, signals: thread.signals };
};

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: '', CURATION_TAGS: '' }));
  admin = await signIn(base, 'admin');
});
afterEach(() => app.close());

test(
  'near-duplicates: the same normalised text, the same link, the same picture file; short texts never',
  { tags: ['engine'] },
  async () => {
    const [approvedText, rejectedLink, approvedImage] = await seed([
      { status: 'approved', text: 'Grid systems make layouts calm and readable for everyone!' },
      { status: 'rejected', text: 'Read this: https://www.Example.com/Post/1?utm_source=x' },
      {
        status: 'approved',
        text: 'A poster',
        imageUrl: 'https://scontent-a.cdninstagram.com/v/t51/abc.jpg?oe=111&_nc_sig=aa',
      },
      { status: 'rejected', text: 'Nice!' },
    ]);
    const [byText, byLink, byImage, short, none] = await seed([
      { text: 'grid systems,  make LAYOUTS calm and readable for everyone' },
      { text: 'see http://example.com/post/1/' },
      {
        text: 'Another poster',
        imageUrl: 'https://scontent-b.cdninstagram.com/v/t51/abc.jpg?oe=222&_nc_sig=bb',
      },
      { text: 'nice' },
      { text: 'Something new about kerning and its history in print' },
    ]);
    const list = (await pendingPage(base, admin)).threads;
    expect(find(list, byText).signals.duplicates).toEqual([
      { match: 'text', thread_id: approvedText, status: 'approved', url: `/thread/${approvedText}` },
    ]);
    expect(find(list, byLink).signals.duplicates).toEqual([
      { match: 'link', thread_id: rejectedLink, status: 'rejected', url: null },
    ]);
    expect(find(list, byImage).signals.duplicates).toEqual([
      { match: 'image', thread_id: approvedImage, status: 'approved', url: `/thread/${approvedImage}` },
    ]);
    expect(find(list, short).signals.duplicates).toEqual([]);
    expect(find(list, none).signals.duplicates).toEqual([]);
  },
);

test(
  "the author's history counts approvals and rejections by username without regard to case",
  { tags: ['engine'] },
  async () => {
    await seed([
      { status: 'approved', username: 'Ana.Design' },
      { status: 'approved', username: 'ana.design' },
      { status: 'rejected', username: 'ANA.DESIGN' },
      { status: 'rejected', username: 'someone_else' },
    ]);
    const [ana, fresh] = await seed([{ username: 'ana.Design' }, { username: 'newcomer' }]);
    const list = (await pendingPage(base, admin)).threads;
    expect(find(list, ana).signals).toMatchObject({ author_approved: 2, author_rejected: 1 });
    expect(find(list, fresh).signals).toMatchObject({ author_approved: 0, author_rejected: 0 });
  },
);

test('the score is learned from past decisions: pictures were approved, promotional words rejected', async () => {
  const picture = (i: number) => `https://cdn.example/p/${i}.jpg?oe=1`;
  await seed([
    ...Array.from({ length: 12 }, (_, i): Seed => ({
      status: 'approved',
      imageUrl: picture(i),
      text: `A careful study of type number ${i} with notes on spacing and rhythm`,
    })),
    ...Array.from({ length: 12 }, (_, i): Seed => ({
      status: 'rejected',
      text: `Huge sale on templates number ${i}, use code SAVE now`,
    })),
  ]);
  const [good, bad] = await seed([
    { imageUrl: picture(99), text: 'A careful study of the grid with notes on spacing and rhythm' },
    { text: 'Giveaway and discount on my course this week only, friends' },
  ]);
  const list = (await pendingPage(base, admin)).threads;
  const high = find(list, good).signals;
  const low = find(list, bad).signals;
  expect(high.score).toBeGreaterThan(70);
  expect(low.score).toBeLessThan(30);
  expect(high.score_reasons).toContain('Has a picture: raises the score');
  expect(low.score_reasons).toContain('Promotional words: lowers the score');
  expect(low.score_reasons).toContain('No picture: lowers the score');
});

test("the score learns words from past rejections' reasons and names the telling word", async () => {
  await seed([
    ...Array.from({ length: 12 }, (_, i): Seed => ({
      status: 'approved',
      text: `A careful study of type number ${i} with notes on spacing`,
    })),
    ...Array.from({ length: 8 }, (_, i): Seed => ({
      status: 'rejected',
      decisionReason: 'Not about design or UI',
      text: `Football results for weekend number ${i}, what a match`,
    })),
    // Words of rejections for another reason, or for none, are not learned.
    ...Array.from({ length: 4 }, (_, i): Seed => ({
      status: 'rejected',
      decisionReason: 'Offensive or unsafe',
      text: `Cricket scores number ${i}, see you there`,
    })),
  ]);
  const [football, cricket, plain] = await seed([
    { text: 'FOOTBALL tonight, then a careful look at spacing' },
    { text: 'Cricket tonight, then a careful look at spacing' },
    { text: 'Tonight, a careful look at spacing and type' },
  ]);
  const list = (await pendingPage(base, admin)).threads;
  const learned = '“football”, as in past rejections for “Not about design or UI”: lowers the score';
  expect(find(list, football).signals.score_reasons).toContain(learned);
  expect(find(list, football).signals.score).toBeLessThan(find(list, plain).signals.score);
  for (const id of [cricket, plain])
    expect(find(list, id).signals.score_reasons.some((reason) => reason.includes('past rejections'))).toBe(
      false,
    );
});

test('sort by score pages through every thread once, best first, with a cursor', async () => {
  await seed([
    ...Array.from({ length: 8 }, (_, i): Seed => ({
      status: 'approved',
      imageUrl: `https://c.example/${i}.jpg`,
    })),
    ...Array.from({ length: 8 }, (): Seed => ({ status: 'rejected', text: 'Big sale, buy now' })),
  ]);
  await seed(
    Array.from({ length: 40 }, (_, i): Seed =>
      i % 3 ? { text: `Sale ${i}: buy now` } : { imageUrl: `https://c.example/q${i}.jpg` },
    ),
  );
  const first = await pendingPage(base, admin, { sort: 'score' });
  expect(first.threads).toHaveLength(25);
  expect(first.next_cursor).toEqual(expect.any(String));
  const all = await allPending(base, admin, { sort: 'score' });
  expect(all).toHaveLength(40);
  expect(new Set(all.map((thread) => thread.id)).size).toBe(40);
  const scores = all.map((thread) => thread.signals?.score ?? -1);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  expect(scores[0]).toBeGreaterThan(scores.at(-1) ?? 100);
  // A cursor of one order is refused by another.
  const wrong = await api(base, `/api/threads/pending-review?cursor=${first.next_cursor}`, { cookie: admin });
  expect(wrong.status).toBe(400);
});

test(
  'filters: hide authors rejected twice; group duplicates folds them into one item with a count',
  { tags: ['engine'] },
  async () => {
    await seed([
      { status: 'rejected', username: 'Twice' },
      { status: 'rejected', username: 'twice' },
      { status: 'rejected', username: 'once' },
    ]);
    const [twice, once, a, b, c] = await seed([
      { username: 'TWICE' },
      { username: 'once' },
      { text: 'The same long text about colour contrast in dark interfaces' },
      { text: 'the same long text about colour contrast in dark interfaces!!' },
      { text: 'Other, with the link https://example.org/a' },
    ]);
    await seed([{ text: 'And the link again: https://example.org/a?x=1' }]);
    const hidden = await allPending(base, admin, { hide_rejected_authors: 'true' });
    expect(hidden.map((thread) => thread.id)).not.toContain(twice);
    expect(hidden.map((thread) => thread.id)).toContain(once);
    expect((await pendingPage(base, admin, { hide_rejected_authors: 'true' })).total).toBe(5);

    const grouped = (await pendingPage(base, admin, { group_duplicates: 'true' })).threads;
    const ids = grouped.map((thread) => thread.id);
    expect(ids).toContain(a);
    expect(ids).not.toContain(b);
    expect(find(grouped, a).signals.grouped).toBe(1);
    expect(find(grouped, c).signals.grouped).toBe(1);
    expect(grouped).toHaveLength(4);
  },
);

test('bad sort and filter values are a 400 naming the field', async () => {
  for (const [query, field] of [
    ['sort=best', 'sort'],
    ['hide_rejected_authors=yes', 'hide_rejected_authors'],
    ['group_duplicates=1', 'group_duplicates'],
  ]) {
    const response = await api(base, `/api/threads/pending-review?${query}`, { cookie: admin });
    expect(response.status, query).toBe(400);
    expect(((await response.json()) as { detail: string }).detail, query).toContain(field);
  }
});

test(
  "the duplicate lookups are the expression indexes' own expressions (migration 0013)",
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const lookups = [
      ['threads_decided_text_key', textKey(threads.text)],
      ['threads_decided_link_key', linkKey(threads.text)],
      ['threads_decided_image_key', imageKey(threads.imageUrl)],
    ] as const;
    const plans: Record<string, string> = {};
    for (const [name, key] of lookups) {
      await db
        .transaction(async (tx) => {
          // Only to see whether a lookup can use its index: on an empty table a scan would win, and with
          // the other partial indexes present PostgreSQL may walk one of them whole with a filter.
          await tx.execute(sql`set local enable_seqscan = off`);
          for (const [other] of lookups) if (other !== name) await tx.execute(sql.raw(`drop index ${other}`));
          const result = await tx.execute(
            sql`explain select ${threads.id} from ${threads} where ${threads.status} <> 'pending' and ${key} in ('a', 'b')`,
          );
          plans[name] = JSON.stringify((result as unknown as { rows: unknown[] }).rows);
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
    }
    for (const [name, plan] of Object.entries(plans)) {
      expect(plan, name).toContain(name);
      // The key is the index's condition, not a filter over a whole walk of the index.
      expect(plan, name).toContain('Index Cond');
    }
    const indexes = await db.execute(
      sql`select indexname from pg_indexes where indexname like 'threads_decided_%'`,
    );
    expect((indexes as unknown as { rows: unknown[] }).rows).toHaveLength(3);
  },
);

/** Thrown to end a transaction that only looked, so its dropped indexes come back. */
class RolledBack extends Error {}
