import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  MODERATION_LOG_PAGE_SIZE,
  type ModerationLogEntry,
  type ModerationLogPage,
} from '../../../contract/moderation-log.ts';
import { threads, users } from '../../../server/db/schema.ts';
import { api, approvedMember, signIn, startApp } from '../auth/helpers.ts';
import { attributeAsSearchWould } from '../helpers/attribution.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' }));
});
afterEach(() => app.close());

const ENTRY_KEYS = ['decided_at', 'decision', 'excerpt', 'handle', 'id', 'permalink', 'reason', 'topic_tag'];

async function page(cursor?: string): Promise<{ response: Response; body: ModerationLogPage }> {
  const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
  const response = await api(base, `/api/moderation${query}`);
  expect(response.status).toBe(200);
  return { response, body: (await response.json()) as ModerationLogPage };
}

/** Every page from the first, following next_cursor. */
async function allPages(): Promise<ModerationLogPage[]> {
  const pages: ModerationLogPage[] = [];
  let cursor: string | undefined;
  do {
    const { body } = await page(cursor);
    pages.push(body);
    cursor = body.next_cursor ?? undefined;
  } while (cursor && pages.length < 20);
  return pages;
}

interface Seeded {
  id: string;
  decidedAt: string;
}

/**
 * Decided threads straight in the database: groups of three share one exact moment (ties broken by
 * id) and neighbours differ by a microsecond, which a millisecond cursor would lose.
 */
async function seedDecisions(count: number): Promise<Seeded[]> {
  const { db } = await testDatabase();
  const moments = Array.from({ length: count }, (_, i) => {
    const second = String(Math.floor(i / 6)).padStart(2, '0');
    const micro = String(1 + (Math.floor(i / 3) % 2)).padStart(6, '0');
    return `2026-11-20T10:00:${second}.${micro}Z`;
  });
  const rows = await db
    .insert(threads)
    .values(
      moments.map((decidedAt, i) => ({
        shortcode: `Seed${i}x`,
        source: i % 2 ? ('public_search' as const) : ('public_tag' as const),
        status: i % 5 === 0 ? ('rejected' as const) : ('approved' as const),
        username: `author${i}`,
        text: `Post number ${i} about grids`,
        topicTag: 'UIDesign',
        permalink: `https://www.threads.com/@author${i}/post/Seed${i}x`,
        decidedAt: sql`${decidedAt}::timestamptz`,
        decisionReason: i % 5 === 0 ? `Seeded reason ${i}` : null,
      })),
    )
    .returning({ id: threads.id, shortcode: threads.shortcode });
  const seeded: Seeded[] = rows.map(({ id, shortcode }) => ({
    id,
    decidedAt: moments[Number(/\d+/.exec(shortcode)?.[0])] ?? '',
  }));
  // Neither a pending thread, one hidden at the source, nor a member's own post is listed.
  await db.insert(threads).values([
    { shortcode: 'Waiting1', source: 'public_search', permalink: 'https://www.threads.com/t/Waiting1' },
    {
      shortcode: 'Own1',
      source: 'user_own',
      status: 'rejected',
      permalink: 'https://www.threads.com/t/Own1',
      decidedAt: sql`'2026-11-21T00:00:00Z'::timestamptz`,
      decisionReason: 'A member would be named by this',
    },
    {
      shortcode: 'Gone1',
      source: 'public_search',
      status: 'hidden',
      permalink: 'https://www.threads.com/t/Gone1',
      decidedAt: sql`'2026-11-21T00:00:00Z'::timestamptz`,
    },
  ]);
  return seeded;
}

/** Newest first: the later moment first, and within one moment the greater id (uuid order is hex order). */
const newestFirst = (a: Seeded, b: Seeded) =>
  a.decidedAt === b.decidedAt ? b.id.localeCompare(a.id) : b.decidedAt.localeCompare(a.decidedAt);

test(
  'the log pages newest first, 25 at a time, with no gap or duplicate across pages and ties',
  { tags: ['engine'] },
  async () => {
    const seeded = await seedDecisions(2 * MODERATION_LOG_PAGE_SIZE + 7);
    const pages = await allPages();
    expect(pages.map((p) => p.entries.length)).toEqual([25, 25, 7]);
    expect(pages.at(-1)?.next_cursor).toBeNull();
    const listed = pages.flatMap((p) => p.entries.map((entry) => entry.id));
    expect(listed).toEqual([...seeded].sort(newestFirst).map((row) => row.id));
    // Walking again from a page's cursor gives the same page.
    const again = await page(pages[0]?.next_cursor ?? '');
    expect(again.body.entries.map((entry) => entry.id)).toEqual(pages[1]?.entries.map((entry) => entry.id));
  },
);

test('an entry says what, how, when and why; a rejection through the API leads the log at once', async () => {
  await seedDecisions(3);
  // The first page is now cached; the rejection below must still show on the next read.
  const before = await page();
  expect(before.response.headers.get('cache-control')).toBe('public, max-age=15');
  expect(before.response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(before.response.headers.get('content-type')).toContain('application/json');
  expect(before.body.entries).toHaveLength(3);

  const member = await approvedMember(base, 'carol_member');
  const link = 'https://www.threads.com/@someone.else/post/REJECTme1';
  const submitted = await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie: member,
    body: { thread_url: link, notes: 'A private note for the admins' },
  });
  expect(submitted.status).toBe(201);
  const { db } = await testDatabase();
  // A search result names its author (decision 063): until then the log would not list it.
  const thread = await attributeAsSearchWould(db, link);
  const admin = await signIn(base, 'admin');
  const rejected = await api(base, '/api/threads/reject', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread?.id, reason: 'Promotional or spam' },
  });
  expect(rejected.status).toBe(200);

  const after = await page();
  expect(after.body.entries).toHaveLength(4);
  const [first] = after.body.entries;
  expect(first).toEqual({
    id: thread?.id ?? '',
    permalink: link,
    handle: '@someone.else',
    excerpt: null,
    topic_tag: null,
    decision: 'rejected',
    decided_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as string,
    reason: 'Promotional or spam',
  } satisfies ModerationLogEntry);
  expect(Date.parse(first?.decided_at ?? '')).toBeGreaterThan(Date.parse('2026-11-20T10:00:01Z'));
  const seededRejection = after.body.entries.find(
    (entry) => entry.decision === 'rejected' && entry !== first,
  );
  expect(seededRejection?.reason).toBe('Seeded reason 0');
  const approval = after.body.entries.find((entry) => entry.handle === '@author2');
  expect(approval).toMatchObject({ decision: 'approved', reason: null, topic_tag: 'UIDesign' });
  expect(approval?.excerpt).toBe('Post number 2 about grids');
});

test('no member data in any field: not the submitter, the admin, their ids, notes or ownership', async () => {
  const member = await approvedMember(base, 'dora_member');
  const { db } = await testDatabase();
  const [memberRow] = await db.select().from(users).where(eq(users.threadsUsername, 'dora_member'));
  const admin = await signIn(base, 'admin');
  const [adminRow] = await db.select().from(users).where(eq(users.threadsUsername, 'admin'));
  // A submission of someone else's post, rejected with a reason, and the member's own post, approved.
  const link = 'https://www.threads.com/@writer/post/PRIVACY1x';
  await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie: member,
    body: { thread_url: link, notes: 'Secret note from dora' },
  });
  const [own] = await db
    .insert(threads)
    .values({
      shortcode: 'OwnPost1',
      source: 'user_own',
      username: 'someauthor',
      text: 'A long post. '.repeat(40),
      permalink: 'https://www.threads.com/@someauthor/post/OwnPost1',
      ownerUserId: memberRow?.id,
    })
    .returning();
  const submitted = await attributeAsSearchWould(db, link);
  for (const [path, id, reason] of [
    ['/api/threads/reject', submitted?.id, 'Not about design or UI'],
    ['/api/threads/approve', own?.id, undefined],
  ] as const) {
    const response = await api(base, path, {
      method: 'POST',
      cookie: admin,
      body: reason ? { thread_id: id, reason } : { thread_id: id },
    });
    expect(response.status).toBe(200);
  }

  const { body } = await page();
  // The member's own post is not listed at all: its handle would name them on their public profile.
  expect(body.entries.map((entry) => entry.id)).toEqual([submitted?.id]);
  for (const entry of body.entries) expect(Object.keys(entry).sort()).toEqual(ENTRY_KEYS);
  const json = JSON.stringify(body);
  for (const secret of [
    'dora_member',
    memberRow?.id ?? 'missing member',
    adminRow?.id ?? 'missing admin',
    '"admin"',
    'Secret note',
    'user_own',
    'manual_submission',
    'owner',
    'source',
    'notes',
  ]) {
    expect(json, secret).not.toContain(secret);
  }
});

test('an empty log is one empty page; a bad cursor is refused with 400 {detail}', async () => {
  const empty = await page();
  expect(empty.body).toEqual({ entries: [], next_cursor: null });
  const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const id = '0b7c6a3e-1f2d-4c5b-8a9e-123456789abc';
  for (const query of [
    'cursor=nonsense!',
    'cursor=bm90IGpzb24',
    `cursor=${forged(['2026-02-30T10:00:00.000001Z', id])}`,
    `cursor=${forged(['2026-11-20T10:00:00Z', id])}`,
    `cursor=${forged(['2026-11-20T10:00:00.000001Z', 'not-a-uuid'])}`,
    `cursor=${forged({ t: '2026-11-20T10:00:00.000001Z', i: id })}`,
    `cursor=${'A'.repeat(500)}`,
    'cursor=a&cursor=b',
  ]) {
    const response = await api(base, `/api/moderation?${query}`);
    expect(response.status, query).toBe(400);
    expect(response.headers.get('cache-control'), query).toBe('no-store');
    const { detail } = (await response.json()) as { detail?: unknown };
    expect(detail, query).toMatch(/cursor is not valid/);
  }
  // A well-formed cursor past the oldest decision is simply the end.
  const end = await page(forged(['2000-01-01T00:00:00.000000Z', id]));
  expect(end.body).toEqual({ entries: [], next_cursor: null });
});
