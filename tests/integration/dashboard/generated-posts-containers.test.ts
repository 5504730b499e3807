import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { generatedPosts as generatedPostsTable } from '../../../server/db/schema.ts';
import { publishGeneratedPosts } from '../../../server/services/publishing/publish-generated-posts.ts';
import { createTokenStore } from '../../../server/services/tokens/token-store.ts';
import { approvedMember, signInCurator, startApp } from '../auth/helpers.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { submitAndApprove } from '../helpers/generated-posts.ts';

// The publisher against the strict simulator (threads-api.md sections 7 and 10): each container
// status and Graph fault, set through the test controls, to what the curator's account and the
// dashboard show. Our clock (`now`) and the provider's (`clock`) move together unless a test says.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let app: FastifyInstance;
let base: string;
let clock = Date.now();
let now = clock;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  clock = Date.now();
  now = clock;
  ({ app, base } = await startApp({ SIMULATED_CONTROLS: 'true' }, { simulatedClock: () => clock }));
});
afterEach(() => app.close());

const later = (ms: number) => {
  clock += ms;
  now += ms;
};

async function control(path: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${base}/simulated-threads/_controls${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(204);
}

async function publish() {
  const { db } = await testDatabase();
  return publishGeneratedPosts({
    db,
    gateway: app.threads.gateway,
    tokenKey: TEST_SECRETS.tokenKey,
    adminUsernames: ['admin'],
    settings: { curatorUsername: null },
    now: new Date(now),
  });
}

async function rows() {
  return (await testDatabase()).db.select().from(generatedPostsTable);
}

async function curatorToken(): Promise<string> {
  const { db } = await testDatabase();
  const curator = await createTokenStore({ db, tokenKey: TEST_SECRETS.tokenKey }).curator(
    { curatorUsername: null },
    ['admin'],
  );
  if (!curator) throw new Error('no curator');
  return curator.token;
}

/** The curator's posts on Threads with this text (a post must never go out twice). */
async function postsOnThreads(text: string) {
  const { posts } = await app.threads.gateway.ownThreads(await curatorToken());
  return posts.filter((post) => post.text === text);
}

/** Both clocks move on to the wall clock's time, when it is ahead (a new post is due from it). */
function catchUp(): void {
  const behind = Date.now() - now;
  if (behind > 0) later(behind);
}

/**
 * The admin (the curator) and one approved submission of `member`'s, queued for publishing;
 * returns the text to be published.
 */
async function queued(link = 'https://www.threads.com/t/CONTain01', member = 'alice') {
  const admin = await signInCurator(base);
  await submitAndApprove(base, await approvedMember(base, member), admin, link);
  catchUp();
  const row = (await rows()).find((candidate) => candidate.content.endsWith(link));
  return row?.content ?? '';
}

const outcome = (counts: Partial<Record<'published' | 'postponed' | 'retrying' | 'failed', number>>) => ({
  published: 0,
  postponed: 0,
  retrying: 0,
  failed: 0,
  ...counts,
});

test('a throttled publish (code 17) is retried with the same container, then published once', async () => {
  const text = await queued();
  await control('/faults', { path: '/v1.0/me/threads_publish', code: 17 });
  expect(await publish()).toEqual(outcome({ retrying: 1 }));
  const [first] = await rows();
  expect(first).toMatchObject({ status: 'pending', attempts: 1, error: expect.stringContaining('code 17') });
  expect(first?.creationId).toMatch(/^\d+$/);
  expect(first?.nextAttemptAt.getTime()).toBe(now + MINUTE);

  later(MINUTE);
  expect(await publish()).toEqual(outcome({ published: 1 }));
  const [done] = await rows();
  expect(done).toMatchObject({ status: 'published', creationId: first?.creationId, error: null });
  expect(await postsOnThreads(text)).toHaveLength(1);
});

test('a lost publish answer: the container says PUBLISHED, the post is recorded with its link, never posted twice', async () => {
  const text = await queued();
  await control('/faults', { path: '/v1.0/me/threads_publish', code: 2, lose_answer: true });
  expect(await publish()).toEqual(outcome({ retrying: 1 }));
  const [onThreads] = await postsOnThreads(text);
  expect(onThreads).toBeDefined();

  later(MINUTE);
  expect(await publish()).toEqual(outcome({ published: 1 }));
  const [row] = await rows();
  expect(row).toMatchObject({ status: 'published', mediaId: onThreads?.id, threadUrl: onThreads?.permalink });
  expect(await postsOnThreads(text)).toHaveLength(1);
});

test('a container still IN_PROGRESS is looked at again a minute later, no attempt spent', async () => {
  const text = await queued();
  await control('/containers', { outcome: 'slow', processing_seconds: 150 });
  expect(await publish()).toEqual(outcome({ postponed: 1 }));
  const [waiting] = await rows();
  expect(waiting).toMatchObject({ attempts: 0, error: expect.stringContaining('still processing') });
  expect(waiting?.nextAttemptAt.getTime()).toBe(now + MINUTE);

  later(MINUTE);
  expect(await publish()).toEqual(outcome({ postponed: 1 }));
  expect((await rows())[0]?.attempts).toBe(0);

  later(2 * MINUTE);
  expect(await publish()).toEqual(outcome({ published: 1 }));
  expect(await rows()).toMatchObject([{ status: 'published', attempts: 1, creationId: waiting?.creationId }]);
  expect(await postsOnThreads(text)).toHaveLength(1);
});

test('a container stuck IN_PROGRESS past 30 minutes fails the attempt and is replaced', async () => {
  const text = await queued();
  await control('/containers', { outcome: 'slow', processing_seconds: 6 * 3600 });
  expect(await publish()).toEqual(outcome({ postponed: 1 }));
  const [stuck] = await rows();
  later(31 * MINUTE);
  expect(await publish()).toEqual(outcome({ retrying: 1 }));
  expect(await rows()).toMatchObject([
    {
      attempts: 1,
      creationId: null,
      error: expect.stringContaining('still processing the post after 30 minutes'),
    },
  ]);
  later(MINUTE);
  expect(await publish()).toEqual(outcome({ published: 1 }));
  const [done] = await rows();
  expect(done?.creationId).not.toBe(stuck?.creationId);
  expect(await postsOnThreads(text)).toHaveLength(1);
});

test('an EXPIRED container gets a new one; so does one older than 24 hours by our clock', async () => {
  const text = await queued();
  await control('/faults', { path: '/v1.0/me/threads_publish', code: 4 });
  expect(await publish()).toEqual(outcome({ retrying: 1 }));
  const [first] = await rows();
  // Threads' clock passes 24 hours: it answers EXPIRED, and a new container is published.
  clock += 25 * HOUR;
  now += MINUTE;
  expect(await publish()).toEqual(outcome({ published: 1 }));
  const [second] = await rows();
  expect(second?.creationId).not.toBe(first?.creationId);
  expect(await app.threads.gateway.containerStatus(await curatorToken(), first?.creationId ?? '')).toEqual({
    status: 'EXPIRED',
    errorMessage: null,
  });
  expect(await postsOnThreads(text)).toHaveLength(1);

  // Another post whose container is a day old by our clock is not asked about, but replaced.
  const other = await queued('https://www.threads.com/t/CONTain02', 'bob');
  await control('/faults', { path: '/v1.0/me/threads_publish', code: 4 });
  expect(await publish()).toEqual(outcome({ retrying: 1 }));
  const stale = (await rows()).find((row) => row.content === other);
  now += 25 * HOUR;
  expect(await publish()).toEqual(outcome({ published: 1 }));
  const fresh = (await rows()).find((row) => row.content === other);
  expect(fresh?.creationId).not.toBe(stale?.creationId);
  // The old container was never published.
  expect(
    (await app.threads.gateway.containerStatus(await curatorToken(), stale?.creationId ?? '')).status,
  ).toBe('FINISHED');
  expect(await postsOnThreads(other)).toHaveLength(1);
});

test('a container in ERROR fails the attempt with Threads’ reason; the next attempt makes a new one', async () => {
  const text = await queued();
  await control('/containers', { outcome: 'error', error_message: 'The text was not accepted.' });
  expect(await publish()).toEqual(outcome({ retrying: 1 }));
  expect(await rows()).toMatchObject([
    {
      attempts: 1,
      creationId: null,
      error: 'Threads could not process the post: The text was not accepted.',
    },
  ]);
  later(MINUTE);
  expect(await publish()).toEqual(outcome({ published: 1 }));
  expect(await postsOnThreads(text)).toHaveLength(1);
});

test('at Threads’ limit of 250 posts in 24 hours every due post waits an hour, no attempt spent', async () => {
  const texts = [await queued(), await queued('https://www.threads.com/t/CONTain03', 'bob')];
  const token = await curatorToken();
  for (let i = 0; i < 250; i++) {
    const creationId = await app.threads.gateway.createTextContainer(token, { text: `Earlier post ${i}` });
    await app.threads.gateway.publishContainer(token, creationId);
  }
  expect(await publish()).toEqual(outcome({ postponed: 2 }));
  for (const row of await rows()) {
    expect(row).toMatchObject({ status: 'pending', attempts: 0, creationId: null });
    expect(row.error).toContain('limit of 250 posts in 24 hours');
    expect(row.nextAttemptAt.getTime()).toBe(now + HOUR);
  }
  // Not due before the hour is up; after a day the window has room again.
  later(59 * MINUTE);
  expect(await publish()).toEqual(outcome({}));
  later(24 * HOUR);
  expect(await publish()).toEqual(outcome({ published: 2 }));
  for (const text of texts) expect(await postsOnThreads(text)).toHaveLength(1);
});

test('Threads refusing the permission (code 10, an app whose publishing was withdrawn): the post fails at once, saying what to do', async () => {
  await queued();
  await control('/faults', { path: '/v1.0/me/threads', method: 'POST', code: 10, status: 403 });
  expect(await publish()).toEqual(outcome({ failed: 1 }));
  const [row] = await rows();
  expect(row).toMatchObject({ status: 'failed', error: expect.stringContaining('threads_content_publish') });
  expect(row?.error).toContain('connect it again from the dashboard');
});
