import { describe, expect, test } from 'vitest';
import {
  cardSearchTerms,
  foldText,
  handleTerms,
  MAX_TERM_LENGTH,
  queryTerms,
  searchTerms,
  topicTerms,
} from '../../../contract/search-terms.ts';
import { buildSampleCards } from '../../../scripts/sample/catalogue.ts';

describe('searchTerms', () => {
  test('lower-cases and splits at anything that is not a letter or digit', () => {
    expect(searchTerms('Focus-rings: STYLE them (2px offset)!')).toEqual([
      'focus',
      'rings',
      'style',
      'them',
      '2px',
      'offset',
    ]);
  });

  test('drops one-character words and stop words, keeps numbers of two digits or more', () => {
    expect(searchTerms('A 4/8/12 ramp is the way to go, and it works')).toEqual([
      '12',
      'ramp',
      'way',
      'go',
      'works',
    ]);
    expect(searchTerms("Don't remove it; no, not ever")).toEqual(['don', 'remove', 'no', 'not', 'ever']);
  });

  test('folds accents and compatibility forms, so any spelling of a word gives the same term', () => {
    expect(searchTerms('Café CRÈME naïve Ångström')).toEqual(['cafe', 'creme', 'naive', 'angstrom']);
    expect(searchTerms('ﬁne ＵＩ ²⁰ İstanbul')).toEqual(['fine', 'ui', '20', 'istanbul']);
    expect(foldText('Éé')).toBe('ee');
  });

  test('keeps letters of every script and counts length in characters, not UTF-16 units', () => {
    expect(searchTerms('Дизайн система 设计系统 σχέδιο')).toEqual([
      'дизаин',
      'система',
      '设计系统',
      'σχεδιο',
    ]);
    // A lone astral letter is one character (dropped); two make a term.
    expect(searchTerms('𐌰 𐌰𐌱')).toEqual(['𐌰𐌱']);
  });

  test('cuts very long words at a whole character', () => {
    const [term] = searchTerms(`${'x'.repeat(MAX_TERM_LENGTH - 1)}𐌰𐌱 tail`);
    expect(Array.from(term ?? '')).toHaveLength(MAX_TERM_LENGTH);
    expect(term?.endsWith('𐌰')).toBe(true);
    expect(searchTerms('https://example.com/a-very-long-path')).toEqual([
      'https',
      'example',
      'com',
      'very',
      'long',
      'path',
    ]);
  });
});

describe('handle and topic terms', () => {
  test.each([
    ['@maren.makes', ['maren', 'makes', 'marenmakes']],
    ['@anders_voss', ['anders', 'voss', 'andersvoss']],
    ['@inescalder', ['inescalder']],
    ['@noor.a11y', ['noor', 'a11y', 'noora11y']],
  ])('handle %s', (handle, terms) => {
    expect(handleTerms(handle).sort()).toEqual([...terms].sort());
  });

  test.each([
    ['DesignSystems', ['designsystems', 'design', 'systems']],
    ['UXResearch', ['uxresearch', 'ux', 'research']],
    ['Typography', ['typography']],
    ['Web3Design', ['web3design', 'web3', 'design']],
    ['UX Design', ['ux', 'design', 'uxdesign']],
  ])('topic %s', (tag, terms) => {
    expect(topicTerms(tag).sort()).toEqual([...terms].sort());
  });
});

describe('cardSearchTerms', () => {
  const card = {
    content: 'Focus rings are a feature.',
    author: 'Maren Holt',
    handle: '@maren.makes',
    topic_tag: 'DesignSystems',
  };

  test('indexes content, author, handle and topic, each term once', () => {
    expect([...cardSearchTerms(card)].sort()).toEqual(
      [
        'focus',
        'rings',
        'feature',
        'maren',
        'holt',
        'makes',
        'marenmakes',
        'designsystems',
        'design',
        'systems',
      ].sort(),
    );
  });

  test('a card without a topic has no topic terms', () => {
    expect([...cardSearchTerms({ ...card, topic_tag: null })]).not.toContain('design');
    expect([...cardSearchTerms({ ...card, topic_tag: undefined })]).not.toContain('systems');
  });

  test('the shared names map gives the same terms as working each card out alone', () => {
    const names = new Map<string, readonly string[]>();
    for (const sample of buildSampleCards(200, new Date('2026-11-21T10:00:00.000Z'))) {
      expect(cardSearchTerms(sample, names)).toEqual(cardSearchTerms(sample));
    }
    // 16 sample authors, their handles and 7 topics at most: computed once each.
    expect(names.size).toBeLessThanOrEqual(16 * 2 + 7);
  });

  test('an author name and a tag spelled alike keep their own terms', () => {
    const names = new Map<string, readonly string[]>();
    const a = cardSearchTerms({ content: '', author: 'DesignSystems', handle: '@x', topic_tag: null }, names);
    const b = cardSearchTerms(
      { content: '', author: 'Y Z', handle: '@q', topic_tag: 'DesignSystems' },
      names,
    );
    expect([...a]).toEqual(['designsystems']);
    expect([...b]).toContain('systems');
  });
});

describe('queryTerms', () => {
  test('uses the same folding as the index, each term once', () => {
    expect(queryTerms('  Focus RING focus ')).toEqual(['focus', 'ring']);
    expect(queryTerms('crème')).toEqual(['creme']);
    expect(queryTerms('@maren.makes')).toEqual(['maren', 'makes']);
  });

  test('a query of nothing searchable has no terms', () => {
    expect(queryTerms('')).toEqual([]);
    expect(queryTerms('  ')).toEqual([]);
    expect(queryTerms('a - ! x')).toEqual([]);
    expect(queryTerms('the ')).toEqual([]);
  });

  test('a stop word still being typed at the end is kept as a prefix', () => {
    expect(queryTerms('an')).toEqual(['an']);
    expect(queryTerms('focus the')).toEqual(['focus', 'the']);
    expect(queryTerms('focus the ')).toEqual(['focus']);
    expect(queryTerms('the focus')).toEqual(['focus']);
  });
});
