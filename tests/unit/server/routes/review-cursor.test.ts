import { expect, test } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../../server/routes/threads/review-cursor.ts';

const ID = '6a2f1d2e-0000-4000-8000-000000000001';

test.each([
  { sort: 'newest' as const, at: '2026-11-23 13:15:04.123456+00', id: ID },
  { sort: 'likes' as const, likes: -1, at: '2026-11-23 13:15:04+00', id: ID },
  { sort: 'newest' as const, at: '2026-11-23 13:15:04-09:30', id: ID },
])('a cursor reads back as the key it was made from ($sort)', (key) => {
  expect(decodeCursor(encodeCursor(key), key.sort)).toEqual(key);
});

test.each([
  ['not base64 JSON', 'not-a-cursor'],
  [
    'a key without an id',
    Buffer.from(JSON.stringify({ sort: 'newest', at: '2026-11-23 13:15:04+00' })).toString('base64url'),
  ],
  [
    'SQL in the timestamp',
    Buffer.from(JSON.stringify({ sort: 'newest', at: "1'; drop table threads --", id: ID })).toString(
      'base64url',
    ),
  ],
  [
    'an extra field',
    Buffer.from(JSON.stringify({ sort: 'newest', at: '2026-11-23 13:15:04+00', id: ID, x: 1 })).toString(
      'base64url',
    ),
  ],
])('%s is a 400', (_, cursor) => {
  expect(() => decodeCursor(cursor, 'newest')).toThrow(expect.objectContaining({ statusCode: 400 }));
});

test('a cursor of the other order is a 400 that says so', () => {
  const cursor = encodeCursor({ sort: 'newest', at: '2026-11-23 13:15:04+00', id: ID });
  expect(() => decodeCursor(cursor, 'likes')).toThrow('another sort order');
});

const forged = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');

test.each([
  ['a month 13', { sort: 'newest', at: '2026-13-45 99:99:99+00', id: ID }],
  ['an offset of +99 hours', { sort: 'newest', at: '2026-11-23 13:15:04+99', id: ID }],
  ['an offset of 60 minutes', { sort: 'newest', at: '2026-11-23 13:15:04+15:60', id: ID }],
  ['the year 0, which PostgreSQL lacks', { sort: 'newest', at: '0000-01-01 00:00:00+00', id: ID }],
  [
    'likes past the integer column',
    { sort: 'likes', likes: 9_999_999_999, at: '2026-11-23 13:15:04+00', id: ID },
  ],
])('a forged key with %s is a 400, never a database error', (_, key) => {
  const sort = key.sort as 'newest' | 'likes';
  expect(() => decodeCursor(forged(key), sort)).toThrow(expect.objectContaining({ statusCode: 400 }));
});
