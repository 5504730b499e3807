import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { NoticePage } from '../../../contract/notices.ts';
import type { ManualSubmission } from '../../../contract/submission.ts';
import { postsMatchingKeyword } from '../../../server/simulator/seed-posts.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { api, approvedMember, signIn, signInCurator, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { allPending } from '../helpers/review-queue.ts';

// Each decision that concerns a member writes their notice (issue 22, decision 056), over real HTTP
// on the worker's database; an undone decision takes its notice with it.
let app: FastifyInstance;
let base: string;
let admin: string;

const KEYWORD = 'typography';
const AUTHOR = postsMatchingKeyword(KEYWORD)[0]?.username ?? '';

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: KEYWORD, CURATION_TAGS: '' }));
  admin = await signInCurator(base);
});
afterEach(() => app.close());

async function noticesOf(cookie: string): Promise<NoticePage> {
  const response = await api(base, '/api/user/notices', { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as NoticePage;
}

async function submit(cookie: string, shortcode: string): Promise<string> {
  const response = await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie,
    body: { thread_url: `https://www.threads.com/@someone/post/${shortcode}` },
  });
  expect(response.status).toBe(201);
  const { submission } = (await response.json()) as { submission: ManualSubmission };
  const queued = (await allPending(base, admin)).find((t) => t.permalink === submission.permalink);
  if (!queued) throw new Error(`${shortcode} is not in the queue`);
  return queued.id;
}

async function ok(path: string, body: unknown): Promise<void> {
  const response = await api(base, path, { method: 'POST', cookie: admin, body });
  expect(response.status).toBe(200);
}

test('an invite approved or rejected reaches its member as a notice', async () => {
  const alice = await approvedMember(base, 'alice');
  expect((await noticesOf(alice)).notices).toMatchObject([
    {
      kind: 'invite_approved',
      text: 'Your invite was approved: you can now save gems and submit threads.',
      read: false,
      link: null,
    },
  ]);
  const bob = await signIn(base, 'bob');
  await api(base, '/api/user/request-invite', { method: 'POST', cookie: bob });
  await ok('/api/admin/approve-user', { user_id: simulatedUserId('bob'), action: 'reject' });
  const page = await noticesOf(bob);
  expect(page.notices.map((n) => [n.kind, n.text])).toEqual([
    ['invite_rejected', 'Your invite request was declined.'],
  ]);
  expect(page.unread).toBe(1);
});

test('a submission declined with a reason, one approved, and a bulk decision each tell the submitter', async () => {
  const alice = await approvedMember(base, 'alice');
  const declined = await submit(alice, 'NoticeOne1');
  const approved = await submit(alice, 'NoticeTwo2');
  const bulk = await submit(alice, 'NoticeThree3');
  await ok('/api/threads/reject', { thread_id: declined, reason: '  Not about design  ' });
  await ok('/api/threads/approve', { thread_id: approved });
  await ok('/api/threads/decide-many', { thread_ids: [bulk], action: 'reject', reason: 'A duplicate' });

  const page = await noticesOf(alice);
  const about = (threadLink: string) => page.notices.find((n) => n.link?.includes(threadLink));
  expect(about('NoticeOne1')).toMatchObject({
    kind: 'submission_rejected',
    text: 'Your submission was declined: Not about design',
    // The post's own link: the handle typed into the submission names no one (decision 063).
    link: 'https://www.threads.com/t/NoticeOne1',
  });
  expect(about('NoticeTwo2')).toMatchObject({
    kind: 'submission_approved',
    text: 'Your submission was approved and is now in the catalogue.',
  });
  expect(about('NoticeThree3')?.text).toBe('Your submission was declined: A duplicate');
  // Newest first; the invite's notice is the oldest.
  expect(page.notices.map((n) => n.kind)).toEqual([
    'submission_rejected',
    'submission_approved',
    'submission_rejected',
    'invite_approved',
  ]);
  expect(page.unread).toBe(4);
});

test('Undo deletes the notice of the decision it takes back; a new decision writes a new one', async () => {
  const alice = await approvedMember(base, 'alice');
  const thread = await submit(alice, 'NoticeUndo1');
  await ok('/api/threads/reject', { thread_id: thread, reason: 'Off topic' });
  expect((await noticesOf(alice)).notices.map((n) => n.kind)).toContain('submission_rejected');
  await ok('/api/threads/undo', { thread_ids: [thread] });
  const after = await noticesOf(alice);
  expect(after.notices.map((n) => n.kind)).toEqual(['invite_approved']);
  expect(after.unread).toBe(1);
  await ok('/api/threads/approve', { thread_id: thread });
  expect((await noticesOf(alice)).notices.map((n) => n.kind)).toEqual([
    'submission_approved',
    'invite_approved',
  ]);
});

test('a gem whose thread leaves the catalogue tells its member, with the words it had', async () => {
  expect((await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin })).status).toBe(200);
  const [first, second] = (await allPending(base, admin)).filter((t) => t.handle === `@${AUTHOR}`);
  if (!first || !second) throw new Error('the author has fewer than two queued posts');
  await ok('/api/threads/approve', { thread_id: first.id });
  const alice = await approvedMember(base, 'alice');
  const bob = await approvedMember(base, 'bob');
  for (const cookie of [alice, bob])
    expect((await api(base, `/api/user/gems/${first.id}`, { method: 'PUT', cookie })).status).toBe(200);

  // Its author removes it: both members are told.
  const author = await signIn(base, AUTHOR);
  const removed = await api(base, `/api/authors/me/posts/${first.id}/remove`, {
    method: 'POST',
    cookie: author,
  });
  expect(removed.status).toBe(200);
  for (const cookie of [alice, bob]) {
    const [notice] = (await noticesOf(cookie)).notices;
    expect(notice).toMatchObject({
      kind: 'gem_removed',
      text: 'A thread you saved as a gem left the catalogue: its author removed it.',
      link: expect.stringContaining(`/@${AUTHOR}/post/`),
    });
    expect(notice?.excerpt?.length).toBeGreaterThan(0);
  }

  // An approval undone drops the gems saved since, and says so.
  await ok('/api/threads/approve', { thread_id: second.id });
  expect((await api(base, `/api/user/gems/${second.id}`, { method: 'PUT', cookie: alice })).status).toBe(200);
  await ok('/api/threads/undo', { thread_ids: [second.id] });
  const [latest] = (await noticesOf(alice)).notices;
  expect(latest).toMatchObject({
    kind: 'gem_removed',
    text: 'A thread you saved as a gem left the catalogue: its approval was taken back.',
  });
  // Bob never saved that one.
  expect((await noticesOf(bob)).notices.filter((n) => n.kind === 'gem_removed')).toHaveLength(1);
});
