import { describe, expect, test } from 'vitest';
import {
  filterOfPath,
  filterPagePath,
  matchesFilter,
  threadFileFor,
  THREAD_FILTERS,
} from '../../../contract/thread-filter.ts';

describe('matchesFilter', () => {
  const textCard = { type: 'text', image: null } as const;
  const imageCard = { type: 'image', image: '/a.webp' } as const;
  // An image post whose image is gone counts as text: a card without a picture must not appear under Images.
  const imagelessImageCard = { type: 'image', image: null } as const;

  test.each([
    [textCard, 'all', true],
    [textCard, 'text', true],
    [textCard, 'images', false],
    [imageCard, 'all', true],
    [imageCard, 'text', false],
    [imageCard, 'images', true],
    [imagelessImageCard, 'images', false],
    [imagelessImageCard, 'text', true],
  ] as const)('%o under %s → %s', (card, filter, expected) => {
    expect(matchesFilter(card, filter)).toBe(expected);
  });

  test('every card is under exactly one of Text and Images', () => {
    for (const card of [textCard, imageCard, imagelessImageCard]) {
      expect(Number(matchesFilter(card, 'text')) + Number(matchesFilter(card, 'images'))).toBe(1);
    }
  });
});

test('the filters map to the spec data files in display order', () => {
  expect(THREAD_FILTERS.map((f) => f.label)).toEqual(['All', 'Text', 'Images']);
  expect(THREAD_FILTERS.map((f) => threadFileFor(f.id))).toEqual([
    '/data/threads-all.json',
    '/data/threads-text.json',
    '/data/threads-images.json',
  ]);
});

describe('filter pages', () => {
  test('each filter has one page, and the page names its filter back', () => {
    expect(THREAD_FILTERS.map(({ id }) => filterPagePath(id))).toEqual([
      '/',
      '/filter/text/',
      '/filter/images/',
    ]);
    for (const { id } of THREAD_FILTERS) expect(filterOfPath(filterPagePath(id))).toBe(id);
    // Without the trailing slash too (a host may serve either); anything else is the home page's list.
    expect(filterOfPath('/filter/images')).toBe('images');
    for (const other of ['/filter/', '/filter/all/', '/topics/text/', '/text/', '/filter/text/x'])
      expect(filterOfPath(other)).toBe('all');
  });
});
