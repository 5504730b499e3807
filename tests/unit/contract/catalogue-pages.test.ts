import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CATALOGUE_PAGE_SIZE,
  isThreadFilter,
  pageCount,
  pageUrl,
  paginate,
  topicListKey,
} from '../../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { testCard } from '../helpers/thread-card.ts';

function card(position: number): ThreadCard {
  return testCard({ id: `c${position}`, content: `post ${position}` });
}

const cards = (count: number) => Array.from({ length: count }, (_, i) => card(i));

test('a page holds 24 cards, the size of the home grid', () => {
  expect(CATALOGUE_PAGE_SIZE).toBe(24);
});

describe('paginate', () => {
  test.each([
    [0, [0]],
    [1, [1]],
    [23, [23]],
    [24, [24]],
    [25, [24, 1]],
    [48, [24, 24]],
    [49, [24, 24, 1]],
  ])('%d cards make pages of %j', (count, sizes) => {
    const list = cards(count);
    const pages = paginate(list, { list: 'all', version: 'v1' });
    expect(pages.map((page) => page.cards.length)).toEqual(sizes);
    expect(pages.map((page) => page.page)).toEqual(sizes.map((_, i) => i + 1));
    for (const page of pages) {
      expect(page).toMatchObject({ version: 'v1', list: 'all', pages: sizes.length, total: count });
    }
    // Every card exactly once, in order.
    expect(pages.flatMap((page) => page.cards)).toEqual(list);
  });

  test('an empty list still has its first page, empty', () => {
    expect(paginate([], { list: 'images', version: 'v9' })).toEqual([
      { version: 'v9', list: 'images', page: 1, pages: 1, total: 0, cards: [] },
    ]);
  });

  test('keeps the list key of a topic and honours another page size', () => {
    const pages = paginate(cards(7), { list: topicListKey('color'), version: 'v2', pageSize: 3 });
    expect(pages.map((page) => [page.list, page.page, page.cards.map((c) => c.id)])).toEqual([
      ['topics/color', 1, ['c0', 'c1', 'c2']],
      ['topics/color', 2, ['c3', 'c4', 'c5']],
      ['topics/color', 3, ['c6']],
    ]);
  });

  test('property: concatenating the pages gives back the list, every page but the last full', () => {
    fc.assert(
      fc.property(fc.nat({ max: 200 }), fc.integer({ min: 1, max: 30 }), (count, pageSize) => {
        const list = cards(count);
        const pages = paginate(list, { list: 'text', version: 'v', pageSize });
        expect(pages.flatMap((page) => page.cards)).toEqual(list);
        expect(pages).toHaveLength(pageCount(count, pageSize));
        expect(pages.slice(0, -1).every((page) => page.cards.length === pageSize)).toBe(true);
        expect(pages.at(-1)?.cards.length).toBeLessThanOrEqual(pageSize);
        expect(pages.every((page) => page.total === count && page.pages === pages.length)).toBe(true);
      }),
    );
  });
});

describe('pageCount', () => {
  test.each([
    [0, 1],
    [1, 1],
    [23, 1],
    [24, 1],
    [25, 2],
    [48, 2],
    [49, 3],
    [100_000, 4167],
  ])('%d cards need %d pages', (total, pages) => {
    expect(pageCount(total)).toBe(pages);
  });

  test('takes another page size', () => {
    expect(pageCount(10, 5)).toBe(2);
    expect(pageCount(11, 5)).toBe(3);
    expect(pageCount(0, 5)).toBe(1);
  });
});

describe('pageUrl', () => {
  test('a filter list is served under /data/pages', () => {
    expect(pageUrl('all', 1)).toBe('/data/pages/all/1.json');
    expect(pageUrl('images', 12)).toBe('/data/pages/images/12.json');
  });

  test('a topic keeps its folder slash and percent-encodes its slug', () => {
    expect(pageUrl(topicListKey('designsystems'), 3)).toBe('/data/pages/topics/designsystems/3.json');
    expect(pageUrl(topicListKey('café-ux'), 1)).toBe('/data/pages/topics/caf%C3%A9-ux/1.json');
    expect(pageUrl(topicListKey('дизайн'), 2)).toBe(
      '/data/pages/topics/%D0%B4%D0%B8%D0%B7%D0%B0%D0%B9%D0%BD/2.json',
    );
  });
});

describe('isThreadFilter', () => {
  test.each([
    ['all', true],
    ['text', true],
    ['images', true],
    ['image', false],
    ['All', false],
    ['', false],
    ['topics/color', false],
    [null, false],
  ])('%j → %s', (value, expected) => {
    expect(isThreadFilter(value)).toBe(expected);
  });
});
