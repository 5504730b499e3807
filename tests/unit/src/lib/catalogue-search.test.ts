import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cardSearchTerms, queryTerms } from '../../../../contract/search-terms.ts';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { createCatalogueSearch, matchCards } from '../../../../src/lib/catalogue-search.ts';
import { searchIndexFiles } from '../../../../server/publisher/export/search-index.ts';
import { buildSampleCards } from '../../../../scripts/sample/catalogue.ts';
import { testCard } from '../../helpers/thread-card.ts';

/** Queries of one to three words, each a prefix (2 to 12 characters) of a word of `vocabulary`. */
function queriesOf(vocabulary: string[]): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.constantFrom(...vocabulary), fc.integer({ min: 2, max: 12 })), {
      minLength: 1,
      maxLength: 3,
    })
    .map((words) => words.map(([word, length]) => word.slice(0, length)).join(' '));
}

const now = new Date('2026-11-21T10:00:00.000Z');

function card(content: string, extra: Partial<ThreadCard> = {}): ThreadCard {
  return testCard({ id: content, content, ...extra });
}

/** The files as the server would serve them, and every URL the search asked for. */
function served(files: [string, string][]) {
  const bodies = new Map(files.map(([path, body]) => [`/data/${path}`, body]));
  const loads: string[] = [];
  const load = (url: string): Promise<unknown> => {
    loads.push(url);
    const body = bodies.get(url);
    return body === undefined ? Promise.reject(new Error(`404 ${url}`)) : Promise.resolve(JSON.parse(body));
  };
  return { bodies, loads, load };
}

function searchOver(cards: readonly ThreadCard[], options?: { splitBytes: number }) {
  const server = served(searchIndexFiles(cards, 'v1', options));
  return { ...server, search: createCatalogueSearch(server.load) };
}

const termsOf = new WeakMap<ThreadCard, string[]>();

/** The same answer worked out the slow way, straight from the cards. */
function oracle(cards: readonly ThreadCard[], query: string): number[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  return cards
    .map((sample, position) => {
      let own = termsOf.get(sample);
      if (!own) termsOf.set(sample, (own = [...cardSearchTerms(sample)]));
      return { position, own };
    })
    .filter(({ own }) => terms.every((term) => own.some((word) => word.startsWith(term))))
    .map(({ position, own }) => ({ position, exact: terms.filter((term) => own.includes(term)).length }))
    .sort((a, b) => b.exact - a.exact || a.position - b.position)
    .map(({ position }) => position);
}

describe('createCatalogueSearch', () => {
  const cards = buildSampleCards(600, now);

  test.each([
    'typography',
    'focus ring',
    'des',
    'Design tokens',
    'maren',
    'UXResearch',
    'colour dark',
    'zzz',
  ])('answers %j like a scan of every card', async (query) => {
    const { search } = searchOver(cards);
    const result = await search.search(query);
    expect(result.version).toBe('v1');
    expect(result.positions).toEqual(oracle(cards, query));
  });

  test('answers random prefixes of indexed words like a scan, on split shards too', async () => {
    const vocabulary = [...new Set(cards.flatMap((sample) => [...cardSearchTerms(sample)]))].sort();
    const { search } = searchOver(cards, { splitBytes: 500 });
    await fc.assert(
      fc.asyncProperty(queriesOf(vocabulary), async (query) => {
        expect((await search.search(query)).positions).toEqual(oracle(cards, query));
      }),
      { numRuns: 150 },
    );
  });

  test('matches cards the index does not hold (the tail) by the same rules and ranking', async () => {
    const vocabulary = [...new Set(cards.flatMap((sample) => [...cardSearchTerms(sample)]))].sort();
    const tail = cards.slice(0, 40);
    const { search } = searchOver(tail);
    await fc.assert(
      fc.asyncProperty(queriesOf(vocabulary), async (query) => {
        expect(search.match(tail, query)).toEqual((await search.search(query)).positions);
      }),
      { numRuns: 100 },
    );
    expect(matchCards([card('design review'), card('designers talk')], 'design')).toEqual([0, 1]);
    expect(matchCards([card('designers talk'), card('design review')], 'design')).toEqual([1, 0]);
    expect(matchCards([card('focus ring')], 'focus ringo')).toEqual([]);
    expect(matchCards([], 'focus')).toEqual([]);
  });

  test('every term must match (AND), each as a prefix', async () => {
    const { search } = searchOver([
      card('focus ring'),
      card('focus state'),
      card('ring light'),
      card('focused rings'),
    ]);
    expect((await search.search('focus')).positions).toEqual([0, 1, 3]);
    expect((await search.search('focus ring')).positions).toEqual([0, 3]);
    expect((await search.search('foc rin')).positions).toEqual([0, 3]);
    expect((await search.search('focus ringo')).positions).toEqual([]);
  });

  test('whole-word matches come first, then newest first', async () => {
    const { search } = searchOver([
      card('designers talk'),
      card('design review'),
      card('designing systems'),
      card('design systems'),
    ]);
    expect((await search.search('design')).positions).toEqual([1, 3, 0, 2]);
    expect((await search.search('design sys')).positions).toEqual([3, 2]);
    expect((await search.search('design systems')).positions).toEqual([3, 2]);
  });

  test('finds words whatever their accents and case', async () => {
    const { search } = searchOver([card('Café crème'), card('Ånd Ångström'), card('cafeteria')]);
    expect((await search.search('CAFÉ')).positions).toEqual([0, 2]);
    expect((await search.search('creme')).positions).toEqual([0]);
    expect((await search.search('angst')).positions).toEqual([1]);
  });

  test('finds a card by its handle, whole or in parts, and by its topic', async () => {
    const { search } = searchOver([
      card('one', { handle: '@maren.makes', topic_tag: 'DesignSystems' }),
      card('two', { handle: '@anders_voss', topic_tag: 'UXResearch' }),
    ]);
    for (const query of ['@maren.makes', 'maren', 'makes', 'marenmak', 'systems', 'designsys'])
      expect((await search.search(query)).positions, query).toEqual([0]);
    for (const query of ['anders_voss', 'voss', 'andersvoss', 'research', 'ux'])
      expect((await search.search(query)).positions, query).toEqual([1]);
  });

  test('an empty query, or one of single letters and stop words, finds nothing and loads no shard', async () => {
    const { search, loads } = searchOver(cards);
    for (const query of ['', '   ', 'a b c', 'the and '])
      expect(await search.search(query)).toEqual({ version: 'v1', positions: [] });
    expect(loads).toEqual(['/data/search/index.json']);
  });

  test('loads the entry file once and each shard once, also for searches running at the same time', async () => {
    const { search, loads } = searchOver(cards);
    await Promise.all([search.search('focus'), search.search('focus ring'), search.search('fo')]);
    await search.search('focused');
    expect(loads.filter((url) => url.endsWith('/index.json'))).toHaveLength(1);
    expect(loads).toHaveLength(new Set(loads).size);
    expect(loads).toHaveLength(3);
  });

  test('a longer prefix loads only the part of a split prefix it needs', async () => {
    const { search, loads } = searchOver(cards, { splitBytes: 500 });
    await search.search('de');
    const everyDe = loads.length - 1;
    expect(everyDe).toBeGreaterThan(2);
    const fresh = searchOver(cards, { splitBytes: 500 });
    await fresh.search.search('design');
    expect(fresh.loads.length - 1).toBeLessThan(everyDe);
  });

  test('does not keep a failed load: the next search tries again', async () => {
    const { bodies, load } = served(searchIndexFiles(cards, 'v1'));
    let failing = true;
    const flaky = (url: string) => (failing ? Promise.reject(new Error('offline')) : load(url));
    const search = createCatalogueSearch(flaky);
    await expect(search.search('typography')).rejects.toThrow('offline');
    failing = false;
    expect((await search.search('typography')).positions).toEqual(oracle(cards, 'typography'));

    // A shard that fails after the entry loaded is retried too.
    const shardUrl = [...bodies.keys()].find((url) => !url.endsWith('/index.json') && url.includes('/6d6f'));
    let shardFails = true;
    const second = createCatalogueSearch((url) =>
      url === shardUrl && shardFails ? Promise.reject(new Error('shard down')) : load(url),
    );
    await expect(second.search('motion')).rejects.toThrow('shard down');
    shardFails = false;
    expect((await second.search('motion')).positions).toEqual(oracle(cards, 'motion'));
  });

  test('after a publish removed the shards it knew, the next search reads the new index', async () => {
    const older = searchIndexFiles(cards, 'v1');
    const newer = searchIndexFiles([card('typography news'), ...cards], 'v2');
    let current = served(older);
    const search = createCatalogueSearch((url) => current.load(url));
    await search.search('focus');
    current = served(newer);
    await expect(search.search('typography')).rejects.toThrow(/404/);
    expect(await search.search('typography')).toEqual({
      version: 'v2',
      positions: [0, ...oracle(cards, 'typography').map((position) => position + 1)],
    });
  });

  test('an empty catalogue finds nothing', async () => {
    const { search } = searchOver([]);
    expect(await search.search('design')).toEqual({ version: 'v1', positions: [] });
  });
});

describe('malformed index files', () => {
  const files = searchIndexFiles([card('grid study'), card('grid lines')], 'v1');
  const [shardPath] = files.find(([path]) => path.startsWith('search/6772.')) ?? [''];
  const entryPath = 'search/index.json';

  async function searchWith(change: (value: Record<string, unknown>) => void, path: string) {
    const { load } = served(files);
    const search = createCatalogueSearch(async (url) => {
      const value = (await load(url)) as Record<string, unknown>;
      if (url === `/data/${path}`) change(value);
      return value;
    });
    return search.search('grid');
  }

  test.each<[string, string, (value: Record<string, unknown>) => void, RegExp]>([
    ['entry', entryPath, (v) => (v.format = 2), /format 2 is not supported/],
    ['entry', entryPath, (v) => (v.docs = -1), /bad doc count/],
    ['entry', entryPath, (v) => (v.shards = [['gr', '../secret.json']]), /bad shard file name/],
    ['shard', shardPath, (v) => (v.version = 'v0'), /written for version v0/],
    ['shard', shardPath, (v) => (v.terms = ['lines', 'grid']), /not sorted/],
    ['shard', shardPath, (v) => (v.key = 'gx'), /holds shard gx, expected gr/],
    ['shard', shardPath, (v) => (v.postings = [[0], [1]]), /postings do not match the terms/],
    ['shard', shardPath, (v) => (v.postings = [[0, 0]]), /bad posting for "grid"/],
    ['shard', shardPath, (v) => (v.postings = [[0, 0.5]]), /bad posting/],
    ['shard', shardPath, (v) => (v.postings = [['0']]), /bad posting/],
    ['shard', shardPath, (v) => (v.postings = [[0, 5]]), /position out of range/],
  ])('a bad %s file throws a clear error (%#)', async (_kind, path, change, message) => {
    await expect(searchWith(change, path)).rejects.toThrow(message);
  });

  test('the unchanged files work', async () => {
    expect((await searchWith(() => undefined, entryPath)).positions).toEqual([0, 1]);
  });
});
