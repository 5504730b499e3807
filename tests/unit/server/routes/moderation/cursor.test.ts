import { expect, test } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../../../server/routes/moderation/cursor.ts';

const ID = '0b7c6a3e-1f2d-4c5b-8a9e-123456789abc';

test('a cursor reads back the exact key it was made from, microseconds included', () => {
  const key = { decidedAt: '2026-11-20T10:00:00.000001Z', id: ID };
  const cursor = encodeCursor(key);
  expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(decodeCursor(cursor)).toEqual(key);
});

test('anything else is not a cursor', () => {
  const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  for (const cursor of [
    '',
    'not base64!',
    Buffer.from('{').toString('base64url'),
    forged([]),
    forged(['2026-11-20T10:00:00.000001Z']),
    forged(['2026-11-20T10:00:00.000001Z', ID, 'extra']),
    forged(['2026-11-20T10:00:00.000Z', ID]),
    forged(['2026-02-30T10:00:00.000001Z', ID]),
    forged(['2026-11-20T25:00:00.000001Z', ID]),
    forged(['0000-01-01T00:00:00.000000Z', ID]), // JavaScript knows year 0, PostgreSQL does not
    forged(['2026-11-20T10:00:00.000001Z', ID.toUpperCase()]),
    forged(['2026-11-20T10:00:00.000001Z', `${ID}'--`]),
    forged([1, ID]),
    forged({ decidedAt: '2026-11-20T10:00:00.000001Z', id: ID }),
    'A'.repeat(201),
  ]) {
    expect(decodeCursor(cursor), cursor).toBeNull();
  }
});
