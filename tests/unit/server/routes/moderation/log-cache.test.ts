import { expect, test } from 'vitest';
import type { ModerationLogPage } from '../../../../../contract/moderation-log.ts';
import { createModerationLogCache } from '../../../../../server/routes/moderation/log-cache.ts';

const PAGE: ModerationLogPage = { entries: [], next_cursor: null };

test('a page is served until the log changes or 30 seconds pass', () => {
  let now = 0;
  const cache = createModerationLogCache(() => now);
  cache.set('', PAGE, cache.generation());
  expect(cache.get('')).toBe(PAGE);
  now = 29_999;
  expect(cache.get('')).toBe(PAGE);
  now = 30_000;
  expect(cache.get('')).toBeUndefined();
  cache.set('', PAGE, cache.generation());
  cache.clear();
  expect(cache.get('')).toBeUndefined();
});

test('a page read while a decision committed is not kept', () => {
  const cache = createModerationLogCache();
  const before = cache.generation();
  cache.clear(); // a decision lands while the page is being read
  cache.set('', PAGE, before);
  expect(cache.get('')).toBeUndefined();
});
