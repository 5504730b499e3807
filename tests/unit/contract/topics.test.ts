import { describe, expect, test } from 'vitest';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { groupByTopic, topicPath, topicSlug } from '../../../contract/topics.ts';

function card(id: string, topic_tag?: string | null): ThreadCard {
  return {
    id,
    type: 'text',
    author: 'Kit Brennan',
    handle: '@kit',
    avatar: '/a.webp',
    content: `post ${id}`,
    image: null,
    likes: null,
    replies: null,
    ...(topic_tag === undefined ? {} : { topic_tag }),
  };
}

describe('topicSlug', () => {
  test.each([
    ['DesignSystems', 'designsystems'],
    ['UXDESIGN', 'uxdesign'],
    ['UX Design', 'ux-design'],
    ['ux-design', 'ux-design'],
    ['ux_design', 'ux-design'],
    ['  UX   Design  ', 'ux-design'],
    ['Hello, World!!', 'hello-world'],
    ['--a11y--', 'a11y'],
    ['Web3', 'web3'],
    ['Café Crème', 'cafe-creme'],
    ['Ångström', 'angstrom'],
    ['Типографика', 'типографика'],
    ['Design 🎨 Tips', 'design-tips'],
  ])('%j → %j', (tag, slug) => {
    expect(topicSlug(tag)).toBe(slug);
  });

  test('tags that differ only in case, accents or punctuation are one topic', () => {
    const spellings = ['UX Design', 'ux-design', 'UX_DESIGN', 'ÚX  désign!'];
    expect(new Set(spellings.map(topicSlug))).toEqual(new Set(['ux-design']));
  });

  test.each(['🎨', '🎨🔥✨', '!!!', '   ', ''])('%j has no slug', (tag) => {
    expect(topicSlug(tag)).toBeNull();
  });

  test('is at most 60 characters and never ends in a dash where it was cut', () => {
    expect(topicSlug('a'.repeat(80))).toBe('a'.repeat(60));
    expect(topicSlug(`${'a'.repeat(59)} bbb`)).toBe('a'.repeat(59));
    const long = topicSlug('Design Systems For Large Teams That Ship Every Single Week Of The Year');
    expect(long?.length).toBeLessThanOrEqual(60);
    expect(long).not.toMatch(/-$/);
    expect(long).toMatch(/^design-systems-for-large-teams/);
  });

  test('is cut at 60 characters, never inside one: its path is a valid URL', () => {
    for (const tag of [`${'a'.repeat(59)}𠀀`, `ﷺ ﷺ ﷺ ${'𠀀'.repeat(10)}`]) {
      const slug = topicSlug(tag);
      expect(slug).not.toBeNull();
      expect(Array.from(slug ?? '').length).toBeLessThanOrEqual(60);
      // A lone surrogate would make encodeURIComponent throw.
      expect(() => topicPath(slug ?? '')).not.toThrow();
      expect(slug?.isWellFormed()).toBe(true);
    }
  });

  test.each([
    ['Дизайн', 'дизайн'],
    ['ガイド', 'ガイド'],
    ['Café', 'cafe'],
  ])('%j keeps the letters of its own script: %j', (tag, slug) => {
    expect(topicSlug(tag)).toBe(slug);
  });
});

test('topicPath percent-encodes the slug', () => {
  expect(topicPath('color')).toBe('/topics/color');
  expect(topicPath('дизайн')).toBe('/topics/%D0%B4%D0%B8%D0%B7%D0%B0%D0%B9%D0%BD');
});

describe('groupByTopic', () => {
  test('groups cards by slug, keeping their order and counting them', () => {
    const cards = [
      card('1', 'Color'),
      card('2', 'Motion'),
      card('3', 'Color'),
      card('4', 'Typography'),
      card('5', 'Color'),
      card('6', 'Motion'),
    ];
    expect(groupByTopic(cards).map(({ topic, cards: own }) => [topic, own.map((c) => c.id)])).toEqual([
      [{ tag: 'Color', slug: 'color', count: 3 }, ['1', '3', '5']],
      [{ tag: 'Motion', slug: 'motion', count: 2 }, ['2', '6']],
      [{ tag: 'Typography', slug: 'typography', count: 1 }, ['4']],
    ]);
  });

  test('the first spelling of a topic names it', () => {
    const groups = groupByTopic([card('1', 'UX Design'), card('2', 'uxdesign'), card('3', 'ux-design')]);
    expect(groups).toHaveLength(2);
    expect(groups[0]?.topic).toEqual({ tag: 'UX Design', slug: 'ux-design', count: 2 });
    expect(groups[0]?.cards.map((c) => c.id)).toEqual(['1', '3']);
    expect(groups[1]?.topic).toEqual({ tag: 'uxdesign', slug: 'uxdesign', count: 1 });
  });

  test('cards without a tag, or with a tag that has no slug, are left out', () => {
    const groups = groupByTopic([
      card('1'),
      card('2', null),
      card('3', '🎨'),
      card('4', 'Color'),
      card('5', '!!'),
    ]);
    expect(groups.map(({ topic, cards: own }) => [topic.slug, own.map((c) => c.id)])).toEqual([
      ['color', ['4']],
    ]);
    expect(groupByTopic([card('1'), card('2', null)])).toEqual([]);
  });

  test('most threads first; topics with as many threads by slug', () => {
    const cards = [
      card('1', 'Zebra'),
      card('2', 'Motion'),
      card('3', 'Apple'),
      card('4', 'Motion'),
      card('5', 'Mango'),
      card('6', 'Zebra'),
      card('7', 'Zebra'),
    ];
    expect(groupByTopic(cards).map(({ topic }) => [topic.slug, topic.count])).toEqual([
      ['zebra', 3],
      ['motion', 2],
      ['apple', 1],
      ['mango', 1],
    ]);
  });
});
