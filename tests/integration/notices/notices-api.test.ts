import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { NOTICES_PAGE_MAX, type NoticePage, type NoticeUnread } from '../../../contract/notices.ts';
import { users } from '../../../server/db/schema.ts';
import { createNoticesRepository } from '../../../server/repositories/notices.ts';
import { api, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The notices API (issue 22, decision 056) over real HTTP: each signed-in person reads and marks
// only their own, newest first, a bounded page at a time.
let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp());
});
afterEach(() => app.close());

/** Signs `username` in and gives them `count` declined-submission notices, oldest first. */
async function memberWithNotices(
  username: string,
  count: number,
): Promise<{ cookie: string; userId: string }> {
  const cookie = await signIn(base, username);
  const { db } = await testDatabase();
  const [user] = await db.select().from(users).where(eq(users.threadsUsername, username));
  if (!user) throw new Error(`${username} was not stored`);
  const notices = createNoticesRepository(db);
  for (let i = 1; i <= count; i += 1)
    await notices.add([
      {
        userId: user.id,
        kind: 'submission_rejected',
        threadId: null,
        details: {
          reason: `Reason ${i}`,
          permalink: `https://www.threads.com/@a/post/P${i}`,
          excerpt: `Text ${i}`,
        },
      },
    ]);
  return { cookie, userId: user.id };
}

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status).toBe(status);
  return (await response.json()) as T;
}

const page = (cookie: string, query = '') => api(base, `/api/user/notices${query}`, { cookie });
const markRead = (cookie: string, body: unknown) =>
  api(base, '/api/user/notices/read', { method: 'POST', cookie, body });

test('a stranger gets 401 on every notices call', async () => {
  for (const response of [
    await api(base, '/api/user/notices'),
    await api(base, '/api/user/notices/unread'),
    await api(base, '/api/user/notices/read', { method: 'POST', body: { up_to: 1 } }),
  ])
    expect(response.status).toBe(401);
});

test(
  'notices come newest first, a bounded page at a time, with the words and the unread count',
  { tags: ['engine'] },
  async () => {
    const total = NOTICES_PAGE_MAX + 5;
    const { cookie } = await memberWithNotices('alice', total);
    const first = await json<NoticePage>(await page(cookie));
    expect(first.notices).toHaveLength(NOTICES_PAGE_MAX);
    expect(first.unread).toBe(total);
    expect(first.notices[0]).toMatchObject({
      kind: 'submission_rejected',
      text: `Your submission was declined: Reason ${total}`,
      excerpt: `Text ${total}`,
      link: `https://www.threads.com/@a/post/P${total}`,
      read: false,
    });
    expect(first.next_before).toBe(first.notices.at(-1)?.id);
    const second = await json<NoticePage>(await page(cookie, `?before=${first.next_before}`));
    expect(second.notices.map((n) => n.text)).toEqual(
      [5, 4, 3, 2, 1].map((i) => `Your submission was declined: Reason ${i}`),
    );
    expect(second.next_before).toBeNull();
    expect(await json<NoticeUnread>(await api(base, '/api/user/notices/unread', { cookie }))).toEqual({
      unread: total,
    });
  },
);

test("marking one or all up to an id read changes only the caller's own notices", async () => {
  const alice = await memberWithNotices('alice', 3);
  const bob = await memberWithNotices('bob', 2);
  const [newest, middle] = (await json<NoticePage>(await page(alice.cookie))).notices;
  const bobs = (await json<NoticePage>(await page(bob.cookie))).notices;
  if (!newest || !middle || !bobs[0]) throw new Error('notices missing');

  expect(await json<NoticeUnread>(await markRead(alice.cookie, { id: middle.id }))).toEqual({ unread: 2 });
  const after = (await json<NoticePage>(await page(alice.cookie))).notices;
  expect(after.map((n) => n.read)).toEqual([false, true, false]);

  // Bob's ids mean nothing to Alice; his 'all up to' (past every id of hers) leaves hers unread.
  expect(await json<NoticeUnread>(await markRead(alice.cookie, { id: bobs[0].id }))).toEqual({ unread: 2 });
  expect(await json<NoticeUnread>(await markRead(bob.cookie, { up_to: bobs[0].id }))).toEqual({ unread: 0 });
  expect(
    await json<NoticeUnread>(await api(base, '/api/user/notices/unread', { cookie: alice.cookie })),
  ).toEqual({
    unread: 2,
  });

  expect(await json<NoticeUnread>(await markRead(alice.cookie, { up_to: newest.id }))).toEqual({ unread: 0 });
  expect((await json<NoticePage>(await page(alice.cookie))).notices.every((n) => n.read)).toBe(true);
});

test.each([
  ['?before=abc', null, 'before must be a notice id'],
  ['?before=0', null, 'before must be a notice id'],
  ['?page=2', null, 'page'],
  ['', { id: 'x' }, 'id must be a notice id'],
  ['', { up_to: -1 }, 'up_to must be a notice id'],
  ['', {}, 'Name one notice (id) or the newest one to mark (up_to).'],
  ['', { id: 1, up_to: 2 }, 'Name one notice (id) or the newest one to mark (up_to).'],
  ['', { id: 1, all: true }, 'all'],
])('a bad request (%s %j) is a 400 that names the field', async (query, body, words) => {
  const { cookie } = await memberWithNotices('alice', 1);
  const response = body === null ? await page(cookie, query) : await markRead(cookie, body);
  const { detail } = await json<{ detail: string }>(response, 400);
  expect(detail).toContain(words);
});
