import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { AuthConfig, CuratorStatus } from '../../../contract/auth.ts';
import type { CurationRunSummary } from '../../../contract/review.ts';
import { curationRuns, threadsTokens, users } from '../../../server/db/schema.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { generatedPosts, submitAndApprove } from '../helpers/generated-posts.ts';
import {
  api,
  approvedMember,
  CURATOR_GRANT,
  settledRun,
  signIn,
  signInCurator,
  startApp,
} from './helpers.ts';

// Scopes per role (decision 023 enforces them in the simulator, threads-api.md section 10).

let app: FastifyInstance;
let base: string;
beforeAll(
  async () => ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' })),
);
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

/** The scopes stored with `username`'s token, as debug_token reported them at sign-in. */
async function storedScopes(username: string): Promise<string[] | null> {
  const { db } = await testDatabase();
  const [row] = await db
    .select({ scopes: threadsTokens.scopes })
    .from(threadsTokens)
    .innerJoin(users, eq(users.id, threadsTokens.userId))
    .where(eq(users.threadsUserId, simulatedUserId(username)));
  return row?.scopes ?? null;
}

async function curatorStatus(cookie: string): Promise<CuratorStatus> {
  const response = await api(base, '/api/admin/curator', { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as CuratorStatus;
}

async function refresh(cookie: string): Promise<CurationRunSummary> {
  const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie });
  expect(response.status).toBe(200);
  return ((await response.json()) as { run: CurationRunSummary }).run;
}

describe('section 1, scopes: what sign-in asks for and stores', () => {
  test('/api/auth/config asks members for threads_basic only, the curation account for four', async () => {
    const config = (await (await api(base, '/api/auth/config')).json()) as AuthConfig;
    expect(config.scopes).toEqual(['threads_basic']);
    expect(config.curator_scopes).toEqual([
      'threads_basic',
      'threads_keyword_search',
      'threads_manage_insights',
      'threads_content_publish',
    ]);
  });

  test("a member's stored token has threads_basic only", async () => {
    await signIn(base, 'member_one');
    expect(await storedScopes('member_one')).toEqual(['threads_basic']);
  });

  test('connecting the curation account stores the four scopes debug_token reports', async () => {
    await signInCurator(base);
    expect(new Set(await storedScopes('admin'))).toEqual(new Set(CURATOR_GRANT));
  });

  test('the curator signing in again with the login button keeps the wider token; a connect replaces it', async () => {
    await signInCurator(base);
    const admin = await signIn(base, 'admin');
    expect(new Set(await storedScopes('admin'))).toEqual(new Set(CURATOR_GRANT));
    expect((await curatorStatus(admin)).missing).toEqual([]);

    // A deliberate connect with a box unticked is the person's choice: it replaces.
    await signIn(base, 'admin', { scopes: CURATOR_GRANT, untick: ['threads_manage_insights'] });
    expect(await storedScopes('admin')).not.toContain('threads_manage_insights');
  });
});

describe('GET /api/admin/curator: the curation account panel', () => {
  test('shows the account, what it granted and the missing scope of an unticked box', async () => {
    const admin = await signIn(base, 'admin', {
      scopes: CURATOR_GRANT,
      untick: ['threads_content_publish'],
    });
    expect(await curatorStatus(admin)).toEqual({
      connected: true,
      username: 'admin',
      expected_username: null,
      granted: ['threads_basic', 'threads_keyword_search', 'threads_manage_insights'],
      missing: ['threads_content_publish'],
      reconnect_needed: false,
    });
  });

  test('a reconnect-needed account says so; members may not ask', async () => {
    const admin = await signInCurator(base);
    const { db } = await testDatabase();
    await db
      .update(users)
      .set({ reconnectNeeded: true })
      .where(eq(users.threadsUserId, simulatedUserId('admin')));
    const status = await curatorStatus(admin);
    expect([status.connected, status.reconnect_needed, status.username]).toEqual([true, true, 'admin']);
    const member = await signIn(base, 'member_two');
    expect((await api(base, '/api/admin/curator', { cookie: member })).status).toBe(403);
  });
});

describe('runs and publishing with a curator lacking a scope', () => {
  test('a run with a basic-only admin records the missing permission in words and spends no search', async () => {
    const admin = await signIn(base, 'admin');
    const run = await refresh(admin);
    expect(run.searches).toBe(0);
    expect(run.errors).toContain(
      'The curation account has not granted threads_keyword_search: connect it again from the dashboard.',
    );
    expect((await curatorStatus(admin)).missing).toEqual([
      'threads_keyword_search',
      'threads_manage_insights',
      'threads_content_publish',
    ]);
  });

  test('without threads_content_publish a generated post fails at once with the reason, no retry', async () => {
    const admin = await signIn(base, 'admin', { scopes: CURATOR_GRANT, untick: ['threads_content_publish'] });
    const alice = await approvedMember(base, 'alice');
    await submitAndApprove(base, alice, admin, 'https://www.threads.com/@someone/post/NOPUBlish1');

    expect(await app.publishGeneratedPosts()).toEqual({
      ran: true,
      result: { published: 0, postponed: 0, retrying: 0, failed: 1 },
    });
    const posts = await generatedPosts(base, admin);
    expect(posts.map((post) => [post.status, post.error])).toEqual([
      [
        'failed',
        'The curation account may not publish (threads_content_publish was not granted): connect it again from the dashboard and allow publishing.',
      ],
    ]);
  });

  test("a fresh install's 'No curator' failure leaves the runs list once someone may curate", async () => {
    const { db } = await testDatabase();
    await db.insert(curationRuns).values({
      trigger: 'schedule',
      status: 'failed',
      errors: ['No curator: an admin must sign in with Threads before searches can run.'],
      finishedAt: new Date(),
    });
    const admin = await signInCurator(base);
    const runs = async () =>
      (
        (await (await api(base, '/api/admin/runs', { cookie: admin })).json()) as {
          runs: CurationRunSummary[];
        }
      ).runs;
    expect(await runs()).toEqual([]);
    const run = await refresh(admin);
    expect(run.status).toBe('succeeded');
    expect((await runs()).map((shown) => shown.id)).toEqual([run.id]);
  });
});

describe('first run', () => {
  test('the first admin sign-in starts a curation run at once; members and later sign-ins do not', async () => {
    const lines: string[] = [];
    const server = await startApp(
      { CURATION_KEYWORDS: 'typography', CURATION_TAGS: '', LOG_LEVEL: 'info' },
      { firstRunOnAdminSignIn: true, logStream: { write: (line) => lines.push(line) } },
    );
    // Logged before the sign-in answers, so counting the lines needs no waiting.
    const started = () => lines.filter((line) => line.includes('starting a curation run')).length;
    try {
      await signIn(server.base, 'member_three');
      expect(started()).toBe(0);
      const admin = await signInCurator(server.base);
      expect(started()).toBe(1);
      const first = await settledRun(server.base, admin);
      expect(first.status).toBe('succeeded');
      // A run has reached Threads: signing in again starts no other.
      await signInCurator(server.base);
      expect(started()).toBe(1);
      const { db } = await testDatabase();
      expect(await db.select().from(curationRuns)).toHaveLength(1);
    } finally {
      await server.app.close();
    }
  });
});
