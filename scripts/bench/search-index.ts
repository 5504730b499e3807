/**
 * `node scripts/bench/search-index.ts [--counts 1000,100000] [--runs 20]`: measures the static search
 * index (decision 010) on sample catalogues: build time, files, and what a first search downloads.
 * Brotli sizes are given at quality 11 (brotliCompressSync's default) and 5 (what the server uses
 * for /data).
 */
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { SEARCH_ENTRY_FILE, type SearchIndexEntry } from '../../contract/search-terms.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { createCatalogueSearch } from '../../src/lib/catalogue-search.ts';
import { searchIndexFiles } from '../../server/publisher/export/search-index.ts';
import { createRandom } from '../../server/seeded-random.ts';
import { buildSampleCards } from '../sample/catalogue.ts';

const QUERIES = ['typography', 'focus ring', 'des'];
const VERSION = '0123456789abcdef';

const { values } = parseArgs({
  options: {
    counts: { type: 'string', default: '1000,100000' },
    runs: { type: 'string', default: '20' },
  },
});
const counts = values.counts.split(',').map(Number);
const runs = Number(values.runs);

/**
 * The sample repeats 49 posts: a few hundred words, each at perfectly periodic positions, which
 * brotli compresses far better than real postings. This variant shuffles the cards (common words at
 * random positions) and adds 8 words a card from a Zipf-distributed made-up vocabulary of 50,000
 * (the long tail of names, products and typos of real posts).
 */
function realistic(cards: readonly ThreadCard[]): ThreadCard[] {
  const random = createRandom(11);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocabulary = Array.from({ length: 50_000 }, () =>
    Array.from({ length: 4 + Math.floor(random() * 7) }, () => letters[Math.floor(random() * 26)]).join(''),
  );
  const cumulative: number[] = [];
  vocabulary.reduce((sum, _, rank) => (cumulative[rank] = sum + 1 / (rank + 1)), 0);
  const total = cumulative.at(-1) ?? 1;
  const word = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? 0) < target) low = middle + 1;
      else high = middle;
    }
    return vocabulary[low] ?? '';
  };
  const shuffled = [...cards];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as ThreadCard, shuffled[i] as ThreadCard];
  }
  return shuffled.map((card) => ({
    ...card,
    content: `${card.content} ${Array.from({ length: 8 }, word).join(' ')}`,
  }));
}

const br = (body: string, quality: number) =>
  brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (shards: readonly { size: number }[]) => shards.reduce((total, shard) => total + shard.size, 0);
const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0;

async function measure(label: string, cards: ThreadCard[]) {
  searchIndexFiles(cards.slice(0, 1000), VERSION); // warm up the JIT
  // Median of three builds, wall clock and CPU time: CPU time shows the cost on a busy machine too.
  const builds = Array.from({ length: 3 }, () => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const built = searchIndexFiles(cards, VERSION);
    const { user, system } = process.cpuUsage(cpu);
    return { files: built, wall: performance.now() - start, cpu: (user + system) / 1000 };
  });
  const files = builds[0]?.files ?? [];
  const bodies = new Map(files.map(([path, body]) => [`/data/${path}`, body]));
  const entry = bodies.get(`/data/${SEARCH_ENTRY_FILE}`) ?? '';
  // The shard a search can cost the most: largest once compressed (quality 5 to rank them, quickly).
  const { shards: keys } = JSON.parse(entry) as SearchIndexEntry;
  const shards = keys.map(([key, file]) => {
    const body = bodies.get(`/data/search/${file}`) ?? '';
    return { key, path: `search/${file}`, body, size: br(body, 5) };
  });
  const largest = shards.reduce((a, b) => (b.size > a.size ? b : a), {
    key: '',
    path: '-',
    body: '',
    size: 0,
  });
  // A two-letter query loads every shard of its prefix: the heaviest prefix bounds a first search of one word.
  const byPrefix = Map.groupBy(shards, (shard) => Array.from(shard.key).slice(0, 2).join(''));
  const [heaviestQuery] = [...byPrefix].reduce<[string, number]>(
    (heaviest, [prefix, group]) => (sum(group) > heaviest[1] ? [prefix, sum(group)] : heaviest),
    ['', 0],
  );

  console.log(`\n## ${label}\n`);
  console.log('| measure | value |\n| --- | --- |');
  const wall = median(builds.map((build) => build.wall)).toFixed(0);
  console.log(`| build | ${wall} ms (CPU ${median(builds.map((build) => build.cpu)).toFixed(0)} ms) |`);
  console.log(`| files | ${files.length}, ${kb(files.reduce((sum, [, body]) => sum + body.length, 0))} |`);
  console.log(`| entry file | ${kb(entry.length)} raw, ${kb(br(entry, 11))} br11, ${kb(br(entry, 5))} br5 |`);
  console.log(
    `| largest shard (${largest.path}) | ${kb(largest.body.length)} raw, ${kb(br(largest.body, 11))} br11, ${kb(largest.size)} br5 |`,
  );

  console.log('\n| query | results | files fetched | first search br11 | br5 | query after loading |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const query of heaviestQuery ? [...QUERIES, heaviestQuery] : QUERIES) {
    const fetched: string[] = [];
    const search = createCatalogueSearch((url) => {
      fetched.push(url);
      return Promise.resolve(JSON.parse(bodies.get(url) ?? 'null'));
    });
    const { positions } = await search.search(query);
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const t = performance.now();
      await search.search(query);
      times.push(performance.now() - t);
    }
    const sizes = (quality: number) =>
      fetched.reduce((sum, url) => sum + br(bodies.get(url) ?? '', quality), 0);
    console.log(
      `| ${query} | ${positions.length} | ${fetched.length} | ${kb(sizes(11))} | ${kb(sizes(5))} | ${median(times).toFixed(2)} ms |`,
    );
  }
}

for (const count of counts) {
  const cards = buildSampleCards(count, new Date('2026-11-21T10:00:00.000Z'));
  await measure(`${count.toLocaleString('en')} sample threads`, cards);
  await measure(
    `${count.toLocaleString('en')} sample threads, shuffled, + long-tail vocabulary`,
    realistic(cards),
  );
}
