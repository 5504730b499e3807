import { expect, test } from 'vitest';
import { avatarFor } from '../../../../contract/avatar.ts';
import { ThreadCardSchema } from '../../../../contract/thread-card.ts';
import type { PendingRow } from '../../../../server/repositories/review-queue.ts';
import type { ThreadRow } from '../../../../server/repositories/threads.ts';
import { toQueuedThread, toThreadCard } from '../../../../server/views/thread-views.ts';
import { THREAD } from './rows.ts';

const row = (topicTag: string | null) =>
  ({
    id: '6f1c1a2e-8a52-4c5b-9d0f-3f2b9c1d7e10',
    shortcode: 'ABC123',
    username: 'maren.makes',
    authorName: 'Maren Holt',
    text: 'Spacing scales beat ad-hoc margins.',
    imageUrl: null,
    likes: null,
    replies: null,
    permalink: 'https://www.threads.com/@maren.makes/post/ABC123',
    postedAt: new Date('2026-11-21T08:00:00.000Z'),
    createdAt: new Date('2026-11-21T09:00:00.000Z'),
    topicTag,
  }) as unknown as ThreadRow;

test.each([
  ['a short tag stays as it is', 'DesignSystems', 'DesignSystems'],
  ['no tag', null, null],
  ['a blank tag is none', '   ', null],
  ['a long tag is cut to 50 units', 'x'.repeat(80), 'x'.repeat(50)],
  // 26 emoji are 52 UTF-16 units: cut at a whole emoji, never half of one.
  ['emoji are cut whole', '🎨'.repeat(26), '🎨'.repeat(25)],
])('%s', (_name, tag, expected) => {
  const card = toThreadCard(row(tag));
  expect(card.topic_tag).toBe(expected);
  // The build validates every card it renders: whatever is stored, the card must pass.
  expect(ThreadCardSchema.safeParse(card).success).toBe(true);
});

/** The post's fields every queued thread carries, whatever found it. */
const QUEUED_POST = {
  content: 'Spacing scales beat ad-hoc margins.',
  image: null,
  likes: 12,
  replies: 3,
  type: 'text',
  permalink: 'https://www.threads.com/@maren.makes/post/ABC123',
  timestamp: '2026-11-21T08:00:00.000Z',
  topic_tag: 'DesignSystems',
  fetched_at: '2026-11-21T08:30:00.000Z',
};

const KEY = { sort: 'newest', at: '2026-11-21 08:00:00+00', id: THREAD.id } as const;

test('a thread a search found carries its query, and no notes', () => {
  const row: PendingRow = { ...THREAD, notes: null, key: KEY };
  expect(toQueuedThread(row)).toEqual({
    id: '6f1c1a2e-8a52-4c5b-9d0f-3f2b9c1d7e10',
    handle: '@maren.makes',
    author: 'Maren Holt',
    avatar: avatarFor('maren.makes'),
    ...QUEUED_POST,
    source: 'public_search',
    reviewed: false,
    query: 'design systems',
  });
});

test("a manual submission carries the member's note; the paging key never leaves the server", () => {
  const row: PendingRow = {
    ...THREAD,
    source: 'manual_submission',
    query: null,
    username: null,
    authorName: null,
    notes: 'Worth a look',
    key: KEY,
  };
  expect(toQueuedThread(row)).toEqual({
    id: '6f1c1a2e-8a52-4c5b-9d0f-3f2b9c1d7e10',
    handle: 'Threads post',
    author: 'Unknown author',
    avatar: avatarFor('ABC123'),
    ...QUEUED_POST,
    source: 'manual_submission',
    reviewed: false,
    query: null,
    notes: 'Worth a look',
  });
});

test('an approved card points at the stable picture address (decision 025), never the expiring one', () => {
  const signed = 'https://scontent.cdninstagram.com/v/t51/pic.webp?oe=6745A1B2&_nc_sig=abc';
  const approved = { ...row(null), imageUrl: signed, status: 'approved' } as ThreadRow;
  const sameOrigin = toThreadCard(approved);
  expect(sameOrigin).toMatchObject({ type: 'image', image: `/api/media/${approved.id}` });
  expect(ThreadCardSchema.safeParse(sameOrigin).success).toBe(true);
  // Pages on another origin than the API (API_BASE_URL) get the API's absolute address.
  expect(toThreadCard(approved, { pictureBase: 'https://api.curated.example' }).image).toBe(
    `https://api.curated.example/api/media/${approved.id}`,
  );
  // A pending find shows the address Threads just gave (the route serves approved pictures only).
  const pending = { ...approved, status: 'pending' } as ThreadRow;
  expect(toThreadCard(pending).image).toBe(signed);
});
