import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import { auditLog, threads, users } from '../../../../server/db/schema.ts';
import type { NoticePage } from '../../../../contract/notices.ts';
import type { CurationRunSummary } from '../../../../contract/review.ts';
import {
  CONFIRM_AFTER_MS,
  MAX_HIDES_PER_RUN,
  syncDeletions,
} from '../../../../server/services/curation/deletion-sync.ts';
import type { CurationDeps } from '../../../../server/services/curation/run-context.ts';
import { createTokenStore } from '../../../../server/services/tokens/token-store.ts';
import { ownPostsFor, SEED_POSTS, type SeedPost } from '../../../../server/simulator/seed-posts.ts';
import { api, approvedMember, signIn, startApp } from '../../auth/helpers.ts';
import { TEST_SECRETS } from '../../helpers/app.ts';
import { startFixtureServer, type Exchange } from '../../threads/conformance/fixture-server.ts';
import { createThreadsClient } from '../../../../server/threads/live-client.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// The deletion policy of decision 069 (amending 026) against the simulated provider over HTTP: a
// member's own post is read with their own token and hidden after two misses a day apart; anyone
// else's post is read with the curator's token (UNCONFIRMED), so a miss is only recorded, never a
// hide; at most MAX_HIDES_PER_RUN a run, each audited; oEmbed is never asked (Meta's terms, [EMB]).
const HOUR = 3_600_000;
let now = Date.parse('2026-11-21T10:00:00Z');
let app: FastifyInstance;
let base: string;
let admin: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  now = Date.parse('2026-11-21T10:00:00Z');
  ({ app, base } = await startApp(
    { CURATION_KEYWORDS: '', CURATION_TAGS: '', SIMULATED_CONTROLS: 'true' },
    { simulatedClock: () => now },
  ));
  admin = await signIn(base, 'admin');
});
afterEach(() => app.close());

const deleted = SEED_POSTS.filter((post) => post.disappearsAfterHours !== null);
const live = SEED_POSTS.filter((post) => post.disappearsAfterHours === null);
const permalinkOf = (post: SeedPost) => `https://www.threads.com/@${post.username}/post/${post.shortcode}`;

function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`the seed has no post ${index} of this kind`);
  return item;
}

/** A catalogue row: found by search, or a member's own post when `owner` (a user id) is given. */
type ApprovedRow = { post: SeedPost; mediaId?: string; owner?: string };

/** Approved catalogue rows, as a run and an admin's approval leave them; their ids, in order. */
async function approve<const R extends readonly ApprovedRow[]>(rows: R): Promise<{ [K in keyof R]: string }> {
  const { db } = await testDatabase();
  const inserted = await db
    .insert(threads)
    .values(
      rows.map(({ post, mediaId, owner }, index) => ({
        // Distinct shortcodes when several rows stand for posts the simulator does not know.
        shortcode: mediaId ? `${post.shortcode}${index}` : post.shortcode,
        mediaId: mediaId ?? post.id,
        source: owner ? ('user_own' as const) : ('public_search' as const),
        ownerUserId: owner ?? null,
        status: 'approved' as const,
        username: post.username,
        text: post.text,
        permalink: permalinkOf(post),
        decidedAt: new Date(),
      })),
    )
    .returning({ id: threads.id });
  // The same order and length as `rows`.
  return inserted.map((row) => row.id) as { [K in keyof R]: string };
}

/** Signs `username` in as an approved member (their token stored); their user id. */
async function member(username: string): Promise<string> {
  await approvedMember(base, username);
  const { db } = await testDatabase();
  const [row] = await db.select().from(users).where(eq(users.threadsUsername, username));
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

/** Calls that reached the simulator's oEmbed endpoint while `work` ran (the live client uses fetch). */
async function oembedCallsDuring(work: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(globalThis, 'fetch');
  try {
    await work();
    return spy.mock.calls.filter(([url]) =>
      String(url instanceof Request ? url.url : url).includes('/oembed'),
    ).length;
  } finally {
    spy.mockRestore();
  }
}

/** One deletion sync with the curator's token, on the simulator's clock; it never asks oEmbed. */
async function sync(): Promise<{ hidden: number; errors: string[]; lines: string[] }> {
  const { db } = await testDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const deps: CurationDeps = {
    db,
    gateway: app.threads.gateway,
    tokenKey: TEST_SECRETS.tokenKey,
    settings: config.curation,
    adminUsernames: config.adminUsernames,
    trigger: 'cli',
  };
  const curator = await createTokenStore(deps).curator(config.curation, config.adminUsernames);
  if (!curator) throw new Error('no curator token');
  const errors: string[] = [];
  const lines: string[] = [];
  let hidden = 0;
  const oembedCalls = await oembedCallsDuring(async () => {
    hidden = await syncDeletions(deps, curator.token, {
      errors,
      say: (line) => lines.push(line),
      now: () => new Date(now),
    });
  });
  expect(oembedCalls, 'oEmbed calls during a sync').toBe(0);
  return { hidden, errors, lines };
}

async function rowsOf(ids: string[]) {
  const { db } = await testDatabase();
  const rows = await db.select().from(threads).where(inArray(threads.id, ids));
  return ids.map((id) => rows.find((row) => row.id === id));
}

async function auditOf(ids: string[]) {
  const { db } = await testDatabase();
  return db.select().from(auditLog).where(inArray(auditLog.subject, ids));
}

/** The simulator answers the next `times` reads of `mediaId` with Graph error `code`. */
async function fault(mediaId: string, code: number, subcode?: number, times = 1): Promise<void> {
  const response = await fetch(`${base}/simulated-threads/_controls/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      path: `/v1.0/${mediaId}`,
      method: 'GET',
      code,
      times,
      ...(subcode ? { subcode } : {}),
    }),
  });
  expect(response.ok).toBe(true);
}

const afterAllDeletions = () => (now += 73 * HOUR);
const hides = (lines: string[]) => lines.filter((line) => line.startsWith('Hidden, deleted by its author'));

test('a sync sends no call to oEmbed, whatever it finds (Meta allows oEmbed only for embeds)', async () => {
  const owner = await member(nth(deleted, 0).username);
  await approve([
    { post: nth(deleted, 0), owner },
    { post: nth(deleted, 1) },
    { post: nth(live, 0) },
    { post: nth(live, 1), mediaId: '17899999999999999' },
  ]);
  afterAllDeletions();
  const before = await oembedCallsDuring(() => sync());
  now += CONFIRM_AFTER_MS;
  const after = await oembedCallsDuring(() => sync());
  expect([before, after]).toEqual([0, 0]);
});

test("another author's post /{id} will not return stays approved: the miss is only recorded", async () => {
  const [readable, unreadable] = await approve([
    { post: nth(live, 0) },
    // An id the simulator does not know: code 100 / subcode 33, as Meta answers with standard access
    // for posts not made by the app's users. The permalink is a live public post.
    { post: nth(live, 1), mediaId: '17899999999999999' },
  ]);
  const result = await sync();
  expect(result).toEqual({ hidden: 0, errors: [], lines: [] });
  const rows = await rowsOf([readable, unreadable]);
  expect(rows.map((row) => [row?.status, row?.missingSince])).toEqual([
    ['approved', null],
    ['approved', new Date(now)],
  ]);
  expect(await auditOf([readable, unreadable])).toEqual([]);
});

test("another author's post deleted at the source is never hidden by the sync, however long it is missing", async () => {
  const [gone] = await approve([{ post: nth(deleted, 0) }]);
  afterAllDeletions();
  const firstMissAt = now;
  for (let day = 0; day < 4; day++) {
    expect((await sync()).hidden).toBe(0);
    now += CONFIRM_AFTER_MS;
  }
  expect((await rowsOf([gone]))[0]).toMatchObject({
    status: 'approved',
    missingSince: new Date(firstMissAt),
  });
  expect(await auditOf([gone])).toEqual([]);
});

test("a member's own post deleted at the source is hidden after two misses a day apart, with an audit row", async () => {
  const post = nth(deleted, 0);
  const owner = await member(post.username);
  const [gone, kept] = await approve([{ post, owner }, { post: nth(live, 0) }]);
  // Before its deletion time its author's token reads it like any other.
  expect((await sync()).hidden).toBe(0);
  afterAllDeletions();
  const firstMissAt = now;
  expect((await sync()).hidden).toBe(0);
  expect((await rowsOf([gone]))[0]).toMatchObject({
    status: 'approved',
    missingSince: new Date(firstMissAt),
  });

  // Half a day later: a second miss, but not a day apart yet.
  now += 12 * HOUR;
  expect((await sync()).hidden).toBe(0);

  now = firstMissAt + CONFIRM_AFTER_MS;
  const result = await sync();
  expect(result.hidden).toBe(1);
  expect(result.errors).toEqual([]);
  expect(result.lines).toEqual([
    `Hidden, deleted by its author (missing for over a day): ${permalinkOf(post)}`,
  ]);
  expect((await rowsOf([gone, kept])).map((row) => row?.status)).toEqual(['hidden', 'approved']);
  expect((await auditOf([gone, kept])).map((row) => ({ ...row.details, actor: row.actorUserId }))).toEqual([
    {
      actor: null,
      confirmedBy: 'two_misses',
      checkedWith: 'owner_token',
      mediaId: post.id,
      permalink: permalinkOf(post),
      missingSince: new Date(firstMissAt).toISOString(),
    },
  ]);
  // Hidden posts are not re-checked: a further sync hides nothing more.
  expect((await sync()).hidden).toBe(0);
});

test("an own post's miss is forgotten when its author's token reads it again", async () => {
  const owner = await member('alice');
  const own = nth(ownPostsFor('alice'), 0);
  const [id] = await approve([{ post: own, owner }]);
  await fault(own.id, 100, 33);
  expect((await sync()).hidden).toBe(0);
  expect((await rowsOf([id]))[0]?.missingSince).toEqual(new Date(now));
  now += CONFIRM_AFTER_MS + HOUR;
  expect((await sync()).hidden).toBe(0);
  expect((await rowsOf([id]))[0]).toMatchObject({ status: 'approved', missingSince: null });
});

test("a member's refused token skips only their posts: nothing of theirs is missed or hidden", async () => {
  const owner = await member('alice');
  const own = ownPostsFor('alice');
  const [first, second, other] = await approve([
    { post: nth(own, 0), owner },
    { post: nth(own, 1), owner },
    { post: nth(live, 0) },
  ]);
  // Whichever of the two is asked first is refused; the other is then not asked.
  await fault(nth(own, 0).id, 190);
  await fault(nth(own, 1).id, 190);
  const result = await sync();
  expect(result.hidden).toBe(0);
  expect(result.errors).toEqual([
    expect.stringMatching(/^Deletion sync: @alice's token could not check their posts: /),
  ]);
  expect(result.lines.at(-1)).toBe("1 members' posts were not checked: their authors have no working token.");
  const rows = await rowsOf([first, second, other]);
  expect(rows.map((row) => [row?.status, row?.missingSince])).toEqual([
    ['approved', null],
    ['approved', null],
    ['approved', null],
  ]);
});

test("a member's gem hidden at the source is told, with the words the thread had (decision 056)", async () => {
  const post = nth(deleted, 0);
  const owner = await member(post.username);
  const [gone] = await approve([{ post, owner }, { post: nth(live, 0) }]);
  const alice = await approvedMember(base, 'alice');
  const bob = await approvedMember(base, 'bob');
  expect((await api(base, `/api/user/gems/${gone}`, { method: 'PUT', cookie: alice })).status).toBe(200);
  afterAllDeletions();
  await sync();
  now += CONFIRM_AFTER_MS;
  expect((await sync()).hidden).toBe(1);
  const noticesOf = async (cookie: string) =>
    ((await (await api(base, '/api/user/notices', { cookie })).json()) as NoticePage).notices;
  const [notice] = await noticesOf(alice);
  expect(notice).toMatchObject({
    kind: 'gem_removed',
    text: 'A thread you saved as a gem left the catalogue: it was deleted on Threads.',
    link: permalinkOf(post),
  });
  expect(post.text.replace(/\s+/g, ' ')).toContain((notice?.excerpt ?? '').replace(/…$/, ''));
  expect((await noticesOf(bob)).map((n) => n.kind)).toEqual(['invite_approved']);
});

test(`more confirmed deletions than the cap: exactly ${MAX_HIDES_PER_RUN} hidden and audited, the run says the rest wait`, async () => {
  const owner = await member('alice');
  const post = nth(ownPostsFor('alice'), 0);
  // Ids the simulator does not know under Alice's own: to her token, posts she deleted.
  const count = MAX_HIDES_PER_RUN + 3;
  const ids = await approve(
    Array.from({ length: count }, (_, i) => ({
      post,
      owner,
      mediaId: `179299999999${String(i).padStart(5, '0')}`,
    })),
  );
  await sync();
  now += CONFIRM_AFTER_MS;
  const first = await sync();
  const rest = count - MAX_HIDES_PER_RUN;
  expect(first.hidden).toBe(MAX_HIDES_PER_RUN);
  expect(hides(first.lines)).toHaveLength(MAX_HIDES_PER_RUN);
  expect(first.errors).toEqual([
    `Deletion sync: ${rest} more approved posts are confirmed gone at the source, but one run hides at most ${MAX_HIDES_PER_RUN}: they are hidden by the next runs.`,
  ]);
  expect((await rowsOf(ids)).filter((row) => row?.status === 'hidden')).toHaveLength(MAX_HIDES_PER_RUN);
  const audit = await auditOf(ids);
  expect(audit).toHaveLength(MAX_HIDES_PER_RUN);
  expect(audit.every((row) => row.action === 'thread.hidden_at_source')).toBe(true);

  // The next run takes the ones left waiting first.
  expect((await sync()).hidden).toBe(rest);
  expect((await rowsOf(ids)).filter((row) => row?.status === 'hidden')).toHaveLength(count);
});

test('a curation run reports its hides, and the catalogue row leaves the approved list', async () => {
  const post = nth(deleted, 1);
  const owner = await member(post.username);
  const [gone] = await approve([{ post, owner }, { post: nth(live, 3) }]);
  afterAllDeletions();
  await sync();
  now += CONFIRM_AFTER_MS;
  const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  const { run } = (await response.json()) as { run: CurationRunSummary };
  expect(run.hidden).toBe(1);
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.id, gone));
  expect(row?.status).toBe('hidden');
});

/** One sync through the live client against a fixture Graph server (faults the simulator never sends). */
async function syncAgainst(...exchanges: Exchange[]) {
  const server = await startFixtureServer();
  try {
    server.serve(...exchanges);
    const { db } = await testDatabase();
    const gateway = createThreadsClient({ graphBaseUrl: server.base, appId: '1', appSecret: 'fixture' });
    const errors: string[] = [];
    const lines: string[] = [];
    const deps: CurationDeps = {
      db,
      gateway,
      tokenKey: TEST_SECRETS.tokenKey,
      settings: loadConfig({ LOG_LEVEL: 'silent' }).curation,
      adminUsernames: [],
      trigger: 'cli',
    };
    const hidden = await syncDeletions(deps, 'THAAfixtureToken', {
      errors,
      say: (line) => lines.push(line),
      now: () => new Date(now),
    });
    return { hidden, errors, lines };
  } finally {
    await server.close();
  }
}

const graphError = (status: number, code: number, subcode?: number) => ({
  status,
  json: {
    error: {
      message: `Fixture refusal ${code}.`,
      type: 'THApiException',
      code,
      ...(subcode ? { error_subcode: subcode } : {}),
      fbtrace_id: `AFixtureTrace${code}`,
    },
  },
});

test('section 7: a throttled /{id} stops the sync with an error naming the fbtrace_id; nothing is hidden', async () => {
  const [first] = await approve([{ post: nth(deleted, 0) }]);
  const result = await syncAgainst({
    section: '7. throttled',
    request: { method: 'GET', path: `/v1.0/${nth(deleted, 0).id}` },
    response: graphError(400, 613),
  });
  expect(result.hidden).toBe(0);
  expect(result.errors).toEqual([
    expect.stringMatching(
      /^Deletion sync: stopped: .*code 613.*\(fbtrace_id AFixtureTrace613\); the other approved posts are checked in a later run\.$/,
    ),
  ]);
  expect((await rowsOf([first]))[0]).toMatchObject({ status: 'approved', missingSince: null });
});

test("section 10: another author's post answering code 100/33 is a recorded miss; oEmbed is not asked", async () => {
  const [first] = await approve([{ post: nth(deleted, 0) }]);
  // The fixture server answers only this exchange: a call to /oembed would fail the test.
  const result = await syncAgainst({
    section: '10. not readable',
    request: { method: 'GET', path: `/v1.0/${nth(deleted, 0).id}` },
    response: graphError(400, 100, 33),
  });
  expect(result).toEqual({ hidden: 0, errors: [], lines: [] });
  expect((await rowsOf([first]))[0]).toMatchObject({ status: 'approved', missingSince: new Date(now) });
  expect(await auditOf([first])).toEqual([]);
});
