import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  composeGeneratedPost,
  MAX_PUBLISH_ATTEMPTS,
  retryAt,
} from '../../../../../server/services/publishing/publish-generated-posts.ts';
import { SEARCH_QUOTA_PER_DAY, searchesLeft } from '../../../../../server/services/curation/search-budget.ts';

describe('search budget', () => {
  test.each([
    [0, 2000, 2000],
    [1999, 2000, 1],
    [2000, 2000, 0],
    [2500, 2000, 0],
    [0, 5000, SEARCH_QUOTA_PER_DAY],
    [100, 0, 0],
  ])('%i used of a %i budget leaves %i', (used, budget, left) => {
    expect(searchesLeft(used, budget)).toBe(left);
  });

  test('never negative, never above the budget or the quota, and spending one leaves one less', () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.nat(5000), (used, budget) => {
        const left = searchesLeft(used, budget);
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left).toBeLessThanOrEqual(Math.min(budget, SEARCH_QUOTA_PER_DAY));
        if (left > 0) expect(searchesLeft(used + 1, budget)).toBe(left - 1);
      }),
    );
  });
});

describe('generated posts', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');

  test('retries wait 1, 2, 4, 8 and 16 minutes, then give up', () => {
    const waits = Array.from({ length: MAX_PUBLISH_ATTEMPTS }, (_, i) => {
      const at = retryAt(i + 1, now);
      return at === null ? null : (at.getTime() - now.getTime()) / 60_000;
    });
    expect(waits).toEqual([1, 2, 4, 8, 16, null]);
  });

  test('the text names the author and links the post, or quotes it when its media id is known', () => {
    const permalink = 'https://www.threads.com/@ana.design/post/ABCdef123';
    expect(composeGeneratedPost({ username: 'ana.design', permalink, mediaId: null })).toBe(
      `Curated pick from @ana.design\n\n${permalink}`,
    );
    expect(composeGeneratedPost({ username: 'ana.design', permalink, mediaId: '1790' })).toBe(
      'Curated pick from @ana.design',
    );
    expect(
      composeGeneratedPost({
        username: null,
        permalink: 'https://www.threads.com/t/ABCdef123',
        mediaId: null,
      }),
    ).toBe('Curated pick from a Threads member\n\nhttps://www.threads.com/t/ABCdef123');
  });
});
