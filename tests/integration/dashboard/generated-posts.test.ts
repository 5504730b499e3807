import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ManualSubmission } from '../../../contract/submission.ts';
import { createThreadsClient } from '../../../server/threads/live-client.ts';
import { SIMULATED_PREFIX, threadsSettings } from '../../../server/threads/settings.ts';
import {
  MAX_PUBLISH_ATTEMPTS,
  publishGeneratedPosts,
} from '../../../server/services/publishing/publish-generated-posts.ts';
import { loadConfig } from '../../../server/config.ts';
import { generatedPosts as generatedPostsTable, threadsTokens } from '../../../server/db/schema.ts';
import { api, approvedMember, signInCurator, startApp } from '../auth/helpers.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import {
  generatedPosts as generatedPostsAt,
  submitAndApprove as submitAndApproveAt,
} from '../helpers/generated-posts.ts';

// Approving a manual submission queues a post on the curator's account; the publisher posts it to
// the simulated provider over HTTP, retrying with backoff when it cannot.
let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp());
});
afterEach(() => app.close());

const submitAndApprove = (member: string, admin: string, link: string, notes: string) =>
  submitAndApproveAt(base, member, admin, link, notes);
const generatedPosts = (cookie: string) => generatedPostsAt(base, cookie);

test('an approved submission is published on the curator’s account and shown with its link', async () => {
  const admin = await signInCurator(base);
  const alice = await approvedMember(base, 'alice');
  const link = 'https://www.threads.com/@someone/post/PUBlish01';
  await submitAndApprove(alice, admin, link, 'A careful look at focus rings.');

  const [queued] = await generatedPosts(admin);
  // The typed handle names no one (decision 063): the post's own link, and no author in the post.
  const own = 'https://www.threads.com/t/PUBlish01';
  expect(queued).toMatchObject({ status: 'pending', thread_url: null, source_url: own, error: null });
  // What the member typed is not published: the admin approved the thread, not their words.
  expect(queued?.content).toBe(`Curated pick from a Threads member\n\n${own}`);

  const outcome = await app.publishGeneratedPosts();
  expect(outcome).toEqual({ ran: true, result: { published: 1, postponed: 0, retrying: 0, failed: 0 } });
  const [published] = await generatedPosts(admin);
  expect(published?.status).toBe('published');
  expect(published?.thread_url).toMatch(/^https:\/\/www\.threads\.com\/@admin\/post\/SIM[\w-]+$/);
  // The member follows the posts about their own submissions; another member sees none.
  expect(await generatedPosts(alice)).toEqual([published]);
  expect(await generatedPosts(await approvedMember(base, 'bob'))).toEqual([]);
  // The submission itself now reads approved.
  const mine = (await (await api(base, '/api/dashboard/manual-submissions', { cookie: alice })).json()) as {
    submissions: ManualSubmission[];
  };
  expect(mine.submissions.map((item) => item.status)).toEqual(['approved']);
  // Published once: a second pass has nothing to do.
  expect(await app.publishGeneratedPosts()).toEqual({
    ran: true,
    result: { published: 0, postponed: 0, retrying: 0, failed: 0 },
  });
});

test('without a curator token a post is retried with doubling waits, then marked failed with the reason', async () => {
  const admin = await signInCurator(base);
  const alice = await approvedMember(base, 'alice');
  await submitAndApprove(alice, admin, 'https://www.threads.com/t/RETRYme01', '');
  const { db } = await testDatabase();
  await db.delete(threadsTokens);

  const config = loadConfig({});
  const settings = threadsSettings(config);
  const gateway = createThreadsClient({
    graphBaseUrl: `${base}${SIMULATED_PREFIX}`,
    appId: settings.appId,
    appSecret: settings.appSecret,
  });
  const deps = {
    db,
    gateway,
    tokenKey: TEST_SECRETS.tokenKey,
    adminUsernames: ['admin'],
    settings: { curatorUsername: null },
  };
  let now = Date.now();
  const waits: number[] = [];
  for (let attempt = 1; attempt <= MAX_PUBLISH_ATTEMPTS; attempt++) {
    // Not due yet just before the wait ends.
    if (attempt > 1)
      expect(await publishGeneratedPosts({ ...deps, now: new Date(now - 1) })).toEqual({
        published: 0,
        postponed: 0,
        retrying: 0,
        failed: 0,
      });
    const outcome = await publishGeneratedPosts({ ...deps, now: new Date(now) });
    const final = attempt === MAX_PUBLISH_ATTEMPTS;
    expect(outcome).toEqual({ published: 0, postponed: 0, retrying: final ? 0 : 1, failed: final ? 1 : 0 });
    const [post] = await generatedPosts(admin);
    const [row] = await db.select().from(generatedPostsTable);
    if (!final) {
      const at = row?.nextAttemptAt.getTime() ?? NaN;
      waits.push(at - now);
      now = at;
      expect(post?.status).toBe('pending');
    } else {
      expect(post?.status).toBe('failed');
    }
    expect(row?.attempts).toBe(attempt);
    expect(post?.error).toMatch(/No curator has a working Threads token/);
    // The member who submitted it reads a plain sentence, not our setup's details.
    const [theirs] = await generatedPosts(alice);
    expect(theirs?.error).toBe(
      final ? 'Publishing failed; the admins can see why.' : 'Publishing is being retried.',
    );
  }
  expect(waits).toEqual([60_000, 120_000, 240_000, 480_000, 960_000]);
});
