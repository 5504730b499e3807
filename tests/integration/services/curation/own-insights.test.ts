import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { CurationRunSummary, ReviewThread } from '../../../../contract/review.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../../../server/db/schema.ts';
import { createTokenStore } from '../../../../server/services/tokens/token-store.ts';
import { simulatedUserId } from '../../../../server/simulator/store.ts';
import { ThreadsApiError } from '../../../../server/threads/gateway.ts';
import { TEST_SECRETS } from '../../helpers/app.ts';
import { ownPostsFor } from '../../../../server/simulator/seed-posts.ts';
import { api, approvedMember, MEMBER_GRANT, signIn, signInCurator, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Issue 35 part 3, decision 068: no insights call for a token without threads_manage_insights.
// The simulator's request log (every request, at debug) counts the calls a run really makes.
let app: FastifyInstance;
let base: string;
let admin: string;
let log = '';

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp(
    { CURATION_KEYWORDS: '', CURATION_TAGS: '', LOG_LEVEL: 'debug', SIMULATED_CONTROLS: 'true' },
    { logStream: { write: (line) => void (log += line) } },
  ));
  admin = await signInCurator(base);
});
afterEach(() => app.close());

/** The insights requests the simulated provider answered since the log was last emptied. */
function insightsCalls(): string[] {
  return log.split('\n').filter((line) => line.includes('request completed') && /\/insights\b/.test(line));
}

async function refresh(): Promise<CurationRunSummary> {
  log = '';
  const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  expect(response.status).toBe(200);
  return ((await response.json()) as { run: CurationRunSummary }).run;
}

/** A member approved after signing in with insights granted, as a curator's grant has it. */
async function insightsMember(username: string): Promise<string> {
  const cookie = await signIn(base, username, { scopes: [...MEMBER_GRANT, 'threads_manage_insights'] });
  await api(base, '/api/user/request-invite', { method: 'POST', cookie });
  await api(base, '/api/admin/approve-user', {
    method: 'POST',
    cookie: admin,
    body: { user_id: simulatedUserId(username) },
  });
  return cookie;
}

async function ownThreads(cookie: string): Promise<ReviewThread[]> {
  const response = await api(base, '/api/user/threads', { cookie });
  return ((await response.json()) as { threads: ReviewThread[] }).threads;
}

test('a threads_basic member costs no insights call: the run counts the calls it skipped', async () => {
  const alice = await approvedMember(base, 'alice');
  const own = ownPostsFor('alice');
  const run = await refresh();
  expect(insightsCalls()).toEqual([]);
  expect(run).toMatchObject({ status: 'succeeded', errors: [] });
  expect(run.counts.user_own).toEqual({ seen: own.length, added: own.length, insights_skipped: own.length });
  const threads = await ownThreads(alice);
  expect(threads.every((thread) => thread.likes === null && thread.replies === null)).toBe(true);
  // The run list says so too (the dashboard reads it from there).
  const runs = (await (await api(base, '/api/admin/runs', { cookie: admin })).json()) as {
    runs: CurationRunSummary[];
  };
  expect(runs.runs[0]?.counts.user_own?.insights_skipped).toBe(own.length);
});

test('a token granted threads_manage_insights still gets likes and replies, one call per post', async () => {
  const carol = await insightsMember('carol');
  const own = ownPostsFor('carol');
  const run = await refresh();
  expect(insightsCalls()).toHaveLength(own.length);
  expect(run).toMatchObject({ status: 'succeeded', errors: [] });
  expect(run.counts.user_own).toEqual({ seen: own.length, added: own.length });
  const counted = (await ownThreads(carol)).map(
    (thread) => `${thread.permalink} ${thread.likes}/${thread.replies}`,
  );
  const expected = own.map((post) => `${post.shortcode} ${post.likes}/${post.replies}`);
  expect(counted.map((line) => line.replace(/^.*\/post\//, '')).sort()).toEqual(expected.sort());
});

test('the simulator refuses insights to a threads_basic token as Meta does (code 10, 403)', async () => {
  await approvedMember(base, 'alice');
  const { db } = await testDatabase();
  const [user] = await db.select().from(users).where(eq(users.threadsUsername, 'alice'));
  if (!user) throw new Error('alice has no account');
  const grant = await createTokenStore({ db, tokenKey: TEST_SECRETS.tokenKey }).grantOf(user);
  expect(grant?.scopes).toEqual(['threads_basic']);
  const [post] = ownPostsFor('alice');
  const refused = await app.threads.gateway
    .insights(grant?.token ?? '', post?.id ?? '')
    .catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ThreadsApiError);
  expect(refused).toMatchObject({ status: 403, code: 10 });
});

test('an insights call that is made and fails is an error of the run; the post still arrives', async () => {
  await insightsMember('carol');
  const [first] = ownPostsFor('carol');
  const fault = await fetch(`${base}/simulated-threads/_controls/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: `/v1.0/${first?.id}/insights`, code: 10, status: 403 }),
  });
  expect(fault.status).toBe(204);
  const run = await refresh();
  expect(run.status).toBe('partial');
  expect(run.errors).toEqual([expect.stringMatching(/^Insights of @carol: 1 call failed: /)]);
  // The post itself still arrives.
  expect(run.counts.user_own?.added).toBe(ownPostsFor('carol').length);
});
