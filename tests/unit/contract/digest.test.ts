import { expect, test } from 'vitest';
import {
  digestId,
  digestPath,
  DigestSubscribeSchema,
  isoWeekOf,
  parseDigestId,
  previousWeek,
  weekRange,
} from '../../../contract/digest.ts';

test('ISO weeks: Monday first, week 1 holds the first Thursday, years that end in week 53', () => {
  expect(isoWeekOf(new Date('2026-11-29T23:59:59Z'))).toEqual({ year: 2026, week: 48 });
  expect(isoWeekOf(new Date('2026-11-30T00:00:00Z'))).toEqual({ year: 2026, week: 49 });
  // January 1st 2027 is a Friday: it belongs to 2026's last week, the 53rd.
  expect(isoWeekOf(new Date('2027-01-01T12:00:00Z'))).toEqual({ year: 2026, week: 53 });
  expect(isoWeekOf(new Date('2024-12-30T12:00:00Z'))).toEqual({ year: 2025, week: 1 });
  expect(weekRange({ year: 2026, week: 48 })).toEqual({
    start: new Date('2026-11-23T00:00:00Z'),
    end: new Date('2026-11-30T00:00:00Z'),
  });
  expect(weekRange({ year: 2025, week: 1 }).start).toEqual(new Date('2024-12-30T00:00:00Z'));
  expect(previousWeek(new Date('2027-01-04T08:00:00Z'))).toEqual({ year: 2026, week: 53 });
});

test('a digest id names a real week, two digits, and nothing else', () => {
  expect(digestId({ year: 2026, week: 7 })).toBe('2026-07');
  expect(digestPath('2026-07')).toBe('/digest/2026-07');
  expect(parseDigestId('2026-53')).toEqual({ year: 2026, week: 53 });
  for (const bad of ['2025-53', '2026-00', '2026-7', '26-07', '2026-07x', ''])
    expect(parseDigestId(bad), bad).toBeNull();
});

test('a subscription address is trimmed and lower-cased; anything that is not an address is refused', () => {
  expect(DigestSubscribeSchema.parse({ email: '  Reader@Example.COM ' })).toEqual({
    email: 'reader@example.com',
  });
  for (const email of ['reader', 'a@b', 'a b@example.com', '<a@example.com>', `${'x'.repeat(250)}@e.com`])
    expect(DigestSubscribeSchema.safeParse({ email }).success, email).toBe(false);
});

// Issue 34: these were stored (NUL answered 500 from the database) or mailed as they were.
test.each([
  ['NUL', 'a\u0000b@example.com'],
  ['NEL', 'a\u0085b@example.com'],
  ['right-to-left override', 'moc.elpmaxe@\u202Ea'],
  ['zero-width joiner', 'a\u200Db@example.com'],
  ['left-to-right mark', 'a\u200Eb@example.com'],
  ['noncharacter U+FFFF', 'a\uFFFFb@example.com'],
  ['lone surrogate', 'a\uD800b@example.com'],
])('an address with a %s is refused with the reason', (_, email) => {
  const result = DigestSubscribeSchema.safeParse({ email });
  expect(result.success).toBe(false);
  expect(result.error?.issues.map((issue) => issue.message)).toContain(
    'must be an e-mail address without control or invisible characters',
  );
});
