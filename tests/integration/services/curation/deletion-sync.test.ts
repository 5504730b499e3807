import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import { auditLog, threads } from '../../../../server/db/schema.ts';
import type { NoticePage } from '../../../../contract/notices.ts';
import type { CurationRunSummary } from '../../../../contract/review.ts';
import {
  CONFIRM_AFTER_MS,
  MAX_HIDES_PER_RUN,
  syncDeletions,
} from '../../../../server/services/curation/deletion-sync.ts';
import type { CurationDeps } from '../../../../server/services/curation/run-context.ts';
import { createTokenStore } from '../../../../server/services/tokens/token-store.ts';
import { OEMBED_CALLS_PER_HOUR } from '../../../../server/simulator/oembed-routes.ts';
import { SEED_POSTS, type SeedPost } from '../../../../server/simulator/seed-posts.ts';
import { api, approvedMember, signIn, startApp } from '../../auth/helpers.ts';
import { TEST_SECRETS } from '../../helpers/app.ts';
import { startFixtureServer, type Exchange } from '../../threads/conformance/fixture-server.ts';
import { createThreadsClient } from '../../../../server/threads/live-client.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// The deletion policy of decision 026 against the simulated provider over HTTP (threads-api.md
// sections 5 and 10): a post is hidden only when oEmbed confirms it is gone, or after two misses a
// day apart while oEmbed cannot answer; at most MAX_HIDES_PER_RUN a run, each audited.
const HOUR = 3_600_000;
let now = Date.parse('2026-11-21T10:00:00Z');
let app: FastifyInstance;
let base: string;
let admin: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  now = Date.parse('2026-11-21T10:00:00Z');
  ({ app, base } = await startApp(
    { CURATION_KEYWORDS: '', CURATION_TAGS: '' },
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

type ApprovedRow = { post: SeedPost; mediaId?: string };

/** Approved catalogue rows, as a run and an admin's approval leave them; their ids, in order. */
async function approve<const R extends readonly ApprovedRow[]>(rows: R): Promise<{ [K in keyof R]: string }> {
  const { db } = await testDatabase();
  const inserted = await db
    .insert(threads)
    .values(
      rows.map(({ post, mediaId }) => ({
        shortcode: post.shortcode,
        mediaId: mediaId ?? post.id,
        source: 'public_search' as const,
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

/** One deletion sync with the curator's token, on the simulator's clock. */
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
  const hidden = await syncDeletions(deps, curator.token, {
    errors,
    say: (line) => lines.push(line),
    now: () => new Date(now),
  });
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

/** Uses up this caller's 1,000 oEmbed calls of the rolling hour (threads-api.md section 5). */
async function exhaustOembed(): Promise<void> {
  const url = `${base}/simulated-threads/v1.0/oembed?url=${encodeURIComponent(permalinkOf(nth(live, 0)))}`;
  for (let sent = 0; sent < OEMBED_CALLS_PER_HOUR; sent += 50) {
    await Promise.all(Array.from({ length: 50 }, () => fetch(url).then((answer) => answer.arrayBuffer())));
  }
  const refused = await fetch(url);
  expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(4);
}

const afterAllDeletions = () => (now += 73 * HOUR);

test('section 10, standard access: a post /{id} will not return but oEmbed embeds stays approved', async () => {
  const [own, unreadable] = await approve([
    { post: nth(live, 0) },
    // An id the simulator does not know: it answers code 100 / subcode 33, as Meta does for posts
    // not made by the app's testers. The permalink is a live public post.
    { post: nth(live, 1), mediaId: '17899999999999999' },
  ]);
  const result = await sync();
  expect(result).toEqual({ hidden: 0, errors: [], lines: [] });
  const rows = await rowsOf([own, unreadable]);
  expect(rows.map((row) => [row?.status, row?.missingSince])).toEqual([
    ['approved', null],
    ['approved', null],
  ]);
  expect(await auditOf([own, unreadable])).toEqual([]);
});

test('section 5: a post deleted at the source is hidden once oEmbed confirms it, with an audit row', async () => {
  const [gone, kept] = await approve([{ post: nth(deleted, 0) }, { post: nth(live, 0) }]);
  // Before its deletion time it is read like any other.
  expect((await sync()).hidden).toBe(0);
  afterAllDeletions();
  const result = await sync();
  expect(result.hidden).toBe(1);
  expect(result.errors).toEqual([]);
  expect(result.lines).toEqual([
    `Hidden, gone at the source (oEmbed says it is gone): ${permalinkOf(nth(deleted, 0))}`,
  ]);
  const rows = await rowsOf([gone, kept]);
  expect(rows.map((row) => row?.status)).toEqual(['hidden', 'approved']);
  const audit = await auditOf([gone, kept]);
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({
    actorUserId: null,
    action: 'thread.hidden_at_source',
    subject: gone,
    details: { confirmedBy: 'oembed', mediaId: nth(deleted, 0).id, permalink: permalinkOf(nth(deleted, 0)) },
  });
  // Hidden posts are not re-checked: a second sync hides nothing more.
  expect((await sync()).hidden).toBe(0);
});

test('a member whose gem is hidden at the source is told, with the words the thread had (decision 056)', async () => {
  const [gone] = await approve([{ post: nth(deleted, 0) }, { post: nth(live, 0) }]);
  const alice = await approvedMember(base, 'alice');
  const bob = await approvedMember(base, 'bob');
  expect((await api(base, `/api/user/gems/${gone}`, { method: 'PUT', cookie: alice })).status).toBe(200);
  afterAllDeletions();
  expect((await sync()).hidden).toBe(1);
  const noticesOf = async (cookie: string) =>
    ((await (await api(base, '/api/user/notices', { cookie })).json()) as NoticePage).notices;
  const [notice] = await noticesOf(alice);
  expect(notice).toMatchObject({
    kind: 'gem_removed',
    text: 'A thread you saved as a gem left the catalogue: it was deleted on Threads.',
    link: permalinkOf(nth(deleted, 0)),
  });
  expect(nth(deleted, 0).text.replace(/\s+/g, ' ')).toContain((notice?.excerpt ?? '').replace(/…$/, ''));
  expect((await noticesOf(bob)).map((n) => n.kind)).toEqual(['invite_approved']);
});

test(`more confirmed deletions than the cap: exactly ${MAX_HIDES_PER_RUN} hidden and audited, the run says the rest wait`, async () => {
  expect(deleted.length).toBeGreaterThan(MAX_HIDES_PER_RUN);
  const ids = await approve(deleted.map((post) => ({ post })));
  afterAllDeletions();
  const first = await sync();
  const rest = deleted.length - MAX_HIDES_PER_RUN;
  expect(first.hidden).toBe(MAX_HIDES_PER_RUN);
  expect(first.lines.filter((line) => line.startsWith('Hidden, gone at the source'))).toHaveLength(
    MAX_HIDES_PER_RUN,
  );
  expect(first.errors).toEqual([
    `Deletion sync: ${rest} more approved posts are confirmed gone at the source, but one run hides at most ${MAX_HIDES_PER_RUN}: they are hidden by the next runs.`,
  ]);
  expect((await rowsOf(ids)).filter((row) => row?.status === 'hidden')).toHaveLength(MAX_HIDES_PER_RUN);
  const audit = await auditOf(ids);
  expect(audit).toHaveLength(MAX_HIDES_PER_RUN);
  expect(audit.every((row) => row.action === 'thread.hidden_at_source')).toBe(true);

  // The next run takes the ones left waiting first.
  const second = await sync();
  expect(second.hidden).toBe(Math.min(rest, MAX_HIDES_PER_RUN));
  expect((await rowsOf(ids)).filter((row) => row?.status === 'hidden')).toHaveLength(
    MAX_HIDES_PER_RUN + Math.min(rest, MAX_HIDES_PER_RUN),
  );
});

test('oEmbed throttled (code 4): a miss is recorded, and only a second miss a day later hides', async () => {
  const [gone] = await approve([{ post: nth(deleted, 0) }]);
  afterAllDeletions();
  const firstMissAt = now;
  await exhaustOembed();
  const first = await sync();
  expect(first.hidden).toBe(0);
  expect(first.lines[0]).toMatch(
    /^oEmbed cannot answer \(.*code 4.*\): misses are recorded, not confirmed\.$/,
  );
  expect((await rowsOf([gone]))[0]).toMatchObject({
    status: 'approved',
    missingSince: new Date(firstMissAt),
  });

  // Half a day later, still throttled: a second miss, but not a day apart yet.
  now += 12 * HOUR;
  await exhaustOembed();
  expect((await sync()).hidden).toBe(0);
  expect((await rowsOf([gone]))[0]).toMatchObject({
    status: 'approved',
    missingSince: new Date(firstMissAt),
  });

  now = firstMissAt + CONFIRM_AFTER_MS;
  await exhaustOembed();
  const third = await sync();
  expect(third.hidden).toBe(1);
  expect((await rowsOf([gone]))[0]?.status).toBe('hidden');
  const audit = await auditOf([gone]);
  expect(audit.map((row) => row.details)).toEqual([
    {
      confirmedBy: 'two_misses',
      mediaId: nth(deleted, 0).id,
      permalink: permalinkOf(nth(deleted, 0)),
      missingSince: new Date(firstMissAt).toISOString(),
    },
  ]);
});

test('a miss while oEmbed is throttled is forgotten when oEmbed later says the post exists', async () => {
  const [unreadable] = await approve([{ post: nth(live, 2), mediaId: '17899999999999998' }]);
  await exhaustOembed();
  expect((await sync()).hidden).toBe(0);
  expect((await rowsOf([unreadable]))[0]?.missingSince).toEqual(new Date(now));

  // A day later oEmbed answers again: the post exists, so the earlier miss proves nothing.
  now += CONFIRM_AFTER_MS + HOUR;
  expect((await sync()).hidden).toBe(0);
  expect((await rowsOf([unreadable]))[0]).toMatchObject({ status: 'approved', missingSince: null });
});

test('a curation run reports its hides, and the catalogue row leaves the approved list', async () => {
  const [gone] = await approve([{ post: nth(deleted, 1) }, { post: nth(live, 3) }]);
  afterAllDeletions();
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

test('section 5: an oEmbed refusal that is not throttling (code 10) is no evidence: the sync stops, no miss', async () => {
  const [first] = await approve([{ post: nth(deleted, 0) }]);
  const result = await syncAgainst(
    {
      section: '10. not readable',
      request: { method: 'GET', path: `/v1.0/${nth(deleted, 0).id}` },
      response: graphError(400, 100, 33),
    },
    {
      section: '5. refused',
      request: { method: 'GET', path: '/v1.0/oembed' },
      response: graphError(403, 10),
    },
  );
  expect(result.hidden).toBe(0);
  expect(result.errors).toEqual([expect.stringMatching(/^Deletion sync: oEmbed refused: .*AFixtureTrace10/)]);
  expect((await rowsOf([first]))[0]).toMatchObject({ status: 'approved', missingSince: null });
  expect(await auditOf([first])).toEqual([]);
});
