import { describe, expect, test } from 'vitest';
import { calendarDate, countLabel, formatCount, relativeTime } from '../../../../src/lib/format.ts';

test.each([
  [0, '0'],
  [999, '999'],
  [1000, '1k'],
  [1249, '1.2k'],
  [9999, '9.9k'],
  [12_345, '12k'],
  [999_999, '999k'],
  [1_500_000, '1.5M'],
])('formatCount(%d) = %s', (value, text) => {
  expect(formatCount(value)).toBe(text);
});

test('countLabel uses the singular only for exactly one', () => {
  expect(countLabel(1, 'like', 'likes')).toBe('1 like');
  expect(countLabel(0, 'like', 'likes')).toBe('0 likes');
  expect(countLabel(2300, 'reply', 'replies')).toBe('2.3k replies');
});

describe('calendarDate', () => {
  test('reads as a short English date in UTC', () => {
    expect(calendarDate('2026-11-21T10:00:00.000Z')).toBe('Nov 21, 2026');
    expect(calendarDate('2026-01-05T00:00:00.000Z')).toBe('Jan 5, 2026');
  });

  test('takes the UTC day, whatever the offset it was written with', () => {
    expect(calendarDate('2026-11-21T23:30:00.000Z')).toBe('Nov 21, 2026');
    expect(calendarDate('2026-11-22T01:30:00+03:00')).toBe('Nov 21, 2026');
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-11-21T10:00:00.000Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;

  test.each([
    [0, 'just now'],
    [59_999, 'just now'],
    [MINUTE, '1 minute ago'],
    [5 * MINUTE + 59_000, '5 minutes ago'],
    [59 * MINUTE, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [3 * HOUR + 20 * MINUTE, '3 hours ago'],
    [23 * HOUR + 59 * MINUTE, '23 hours ago'],
    [DAY, 'yesterday'],
    [DAY + 23 * HOUR, 'yesterday'],
    [2 * DAY, '2 days ago'],
    [4 * DAY + 5 * HOUR, '4 days ago'],
    [27 * DAY + 23 * HOUR, '27 days ago'],
  ])('%d ms ago reads %j', (age, text) => {
    expect(relativeTime(ago(age), now)).toBe(text);
  });

  test('after four weeks it gives the date', () => {
    expect(relativeTime(ago(28 * DAY), now)).toBe('Oct 24, 2026');
    expect(relativeTime('2025-03-02T08:00:00.000Z', now)).toBe('Mar 2, 2025');
  });

  test('a moment in the future reads "just now"', () => {
    expect(relativeTime(ago(-5 * MINUTE), now)).toBe('just now');
    expect(relativeTime(ago(-3 * DAY), now)).toBe('just now');
  });

  test('an invalid date reads as nothing', () => {
    expect(relativeTime('not a date', now)).toBe('');
    expect(relativeTime('', now)).toBe('');
    expect(relativeTime('2026-11-21T10:00:00.000Z', Number.NaN)).toBe('');
  });
});
