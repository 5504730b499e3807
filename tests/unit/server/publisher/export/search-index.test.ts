import { describe, expect, test } from 'vitest';
import {
  cardSearchTerms,
  SEARCH_ENTRY_FILE,
  type SearchIndexEntry,
  type SearchIndexShard,
} from '../../../../../contract/search-terms.ts';
import type { ThreadCard } from '../../../../../contract/thread-card.ts';
import {
  MAX_KEY_LENGTH,
  searchIndexFiles,
  SHARD_SPLIT_BYTES,
} from '../../../../../server/publisher/export/search-index.ts';
import { PUBLIC_CATALOGUE_FILE } from '../../../../../server/publisher/export/catalogue-files.ts';
import { buildSampleCards } from '../../../../../scripts/sample/catalogue.ts';
import { createRandom } from '../../../../../server/seeded-random.ts';
import { testCard } from '../../../helpers/thread-card.ts';

const now = new Date('2026-11-21T10:00:00.000Z');

function card(position: number, content: string, extra: Partial<ThreadCard> = {}): ThreadCard {
  return testCard({ id: `c${position}`, content, ...extra });
}

/** Cards whose many distinct words share the prefix "de", so that shard must split. */
function crowdedCards(count: number): ThreadCard[] {
  const random = createRandom(3);
  const word = () =>
    `de${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('')}`;
  return Array.from({ length: count }, (_, i) => card(i, Array.from({ length: 6 }, word).join(' ')));
}

function parse(files: [string, string][]) {
  const byPath = new Map(files);
  const entry = JSON.parse(byPath.get(SEARCH_ENTRY_FILE) ?? 'null') as SearchIndexEntry;
  const shards = entry.shards.map(
    ([, file]) => JSON.parse(byPath.get(`search/${file}`) ?? 'null') as SearchIndexShard,
  );
  return { entry, shards };
}

function decode(deltas: readonly number[]): number[] {
  let position = 0;
  return deltas.map((delta, i) => (position = i === 0 ? delta : position + delta));
}

describe('searchIndexFiles', () => {
  test('writes an entry file and one shard per listed key, all public, with safe names', () => {
    const files = searchIndexFiles(buildSampleCards(300, now), 'v1');
    const { entry, shards } = parse(files);
    expect(files.at(-1)?.[0]).toBe(SEARCH_ENTRY_FILE);
    expect(files).toHaveLength(entry.shards.length + 1);
    for (const [path] of files) expect(path).toMatch(PUBLIC_CATALOGUE_FILE);
    expect(entry).toMatchObject({ format: 1, version: 'v1', docs: 300 });
    for (const [[key, file], shard] of entry.shards.map((pair, i) => [pair, shards[i]] as const)) {
      expect(file).toMatch(/^[0-9a-f]+\.[0-9a-f]{10}\.json$/);
      expect(Buffer.from(file.split('.')[0] ?? '', 'hex').toString('utf8')).toBe(key);
      expect(shard).toMatchObject({ version: 'v1', key });
    }
    const keys = entry.shards.map(([key]) => key);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('postings are ascending positions, delta-encoded, each term under the longest key that prefixes it', () => {
    const cards = buildSampleCards(300, now);
    const { entry, shards } = parse(searchIndexFiles(cards, 'v1'));
    const expected = new Map<string, number[]>();
    cards.forEach((sample, position) => {
      for (const term of cardSearchTerms(sample))
        expected.set(term, [...(expected.get(term) ?? []), position]);
    });
    const found = new Map<string, number[]>();
    for (const shard of shards) {
      expect(shard.terms).toEqual([...shard.terms].sort());
      shard.terms.forEach((term, i) => {
        const longest = entry.shards
          .map(([key]) => key)
          .filter((key) => term.startsWith(key))
          .sort((a, b) => b.length - a.length)[0];
        expect(longest).toBe(shard.key);
        found.set(term, decode(shard.postings[i] ?? []));
      });
    }
    expect(found).toEqual(expected);
  });

  test('encodes gaps between positions', () => {
    const cards = [
      card(0, 'grid'),
      card(1, 'other'),
      card(2, 'grid grid'),
      card(3, 'x'),
      card(4, 'x'),
      card(5, 'grid'),
    ];
    const { shards } = parse(searchIndexFiles(cards, 'v'));
    const shard = shards.find((s) => s.key === 'gr');
    expect(shard?.terms).toEqual(['grid']);
    expect(shard?.postings).toEqual([[0, 2, 3]]);
  });

  test('is deterministic: the same cards give byte-identical files', () => {
    const cards = buildSampleCards(500, now);
    expect(searchIndexFiles(structuredClone(cards), 'v2')).toEqual(searchIndexFiles(cards, 'v2'));
    // And the content hash in the names follows the content.
    const other = searchIndexFiles(cards.slice(1), 'v2').map(([path]) => path);
    expect(other).not.toEqual(searchIndexFiles(cards, 'v2').map(([path]) => path));
  });

  test('splits a crowded prefix by the next character, and keeps shards under the size limit', () => {
    const { entry, shards } = parse(searchIndexFiles(crowdedCards(3000), 'v'));
    const deKeys = entry.shards.map(([key]) => key).filter((key) => key.startsWith('de'));
    expect(deKeys.length).toBeGreaterThan(10);
    expect(deKeys.every((key) => key.length === 3)).toBe(true);
    for (const shard of shards) {
      expect(JSON.stringify(shard).length).toBeLessThanOrEqual(SHARD_SPLIT_BYTES);
    }
  });

  test('a word that alone outgrows the limit gets a shard of its own', () => {
    const words = ['design', 'designer', 'designers'];
    const cards = Array.from({ length: 3000 }, (_, i) => card(i, words[i % 3] ?? ''));
    const { entry, shards } = parse(searchIndexFiles(cards, 'v', { splitBytes: 3000 }));
    for (const word of words) {
      const shard = shards.find((s) => s.terms.includes(word));
      expect(shard?.terms).toEqual([word]);
      expect(shard?.key).toBe(word);
    }
    expect(entry.shards.every(([key]) => Array.from(key).length <= MAX_KEY_LENGTH)).toBe(true);
  });

  test('stops splitting at the longest key', () => {
    const stem = 'x'.repeat(MAX_KEY_LENGTH);
    const cards = Array.from({ length: 2000 }, (_, i) => card(i, `${stem}${i % 2 ? 'a' : 'b'}`));
    const { entry } = parse(searchIndexFiles(cards, 'v', { splitBytes: 1000 }));
    expect(entry.shards.map(([key]) => key)).toContain(stem);
    expect(entry.shards.every(([key]) => key.length <= MAX_KEY_LENGTH)).toBe(true);
  });

  test('an empty catalogue has an entry file and no shards', () => {
    expect(searchIndexFiles([], 'v0')).toEqual([
      [SEARCH_ENTRY_FILE, JSON.stringify({ format: 1, version: 'v0', docs: 0, shards: [] })],
    ]);
  });

  test('keys of other scripts are hex-encoded UTF-8', () => {
    const { entry } = parse(searchIndexFiles([card(0, 'Дизайн 设计系统')], 'v'));
    expect(entry.shards.filter(([key]) => /[^a-z]/.test(key))).toEqual([
      ['ди', expect.stringMatching(/^d0b4d0b8\.[0-9a-f]{10}\.json$/) as unknown],
      ['设计', expect.stringMatching(/^e8aebee8aea1\.[0-9a-f]{10}\.json$/) as unknown],
    ]);
  });
});
