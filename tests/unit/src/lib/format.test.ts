import { expect, test } from 'vitest';
import { countLabel, formatCount } from '../../../../src/lib/format.ts';

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
