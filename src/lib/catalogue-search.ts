import type { ThreadCard } from '../../contract/thread-card.ts';
import {
  cardSearchTerms,
  queryTerms,
  SEARCH_ENTRY_FILE,
  SearchIndexEntrySchema,
  SearchIndexShardSchema,
  type SearchIndexEntry,
  type SearchIndexShard,
} from '../../contract/search-terms.ts';
import type { z } from '../../contract/zod.ts';

/** Every card matching a query, best first, by position in the All list (page = ⌊position / 24⌋ + 1). */
export interface CatalogueSearchResult {
  /** The catalogue version of the index: compare it with the page files' before showing their cards. */
  version: string;
  positions: number[];
}

export interface CatalogueSearch {
  /** Cards holding every query word (as a word prefix); whole-word matches first, then newest first. */
  search(query: string): Promise<CatalogueSearchResult>;
  /** The same match over cards the index does not hold (the tail): see matchCards. */
  match(cards: readonly ThreadCard[], query: string): number[];
}

const ENTRY_URL = `/data/${SEARCH_ENTRY_FILE}`;
const SHARD_BASE = ENTRY_URL.slice(0, ENTRY_URL.lastIndexOf('/') + 1);

function malformed(url: string, what: string): Error {
  return new Error(`Search index file ${url} is malformed: ${what}`);
}

/** `value` read with `schema`, or the first problem named as the file's. */
function read<T>(schema: z.ZodMiniType<T>, url: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw malformed(
    url,
    issue?.code === 'invalid_type' && issue.path.length === 0
      ? 'not an object'
      : (issue?.message ?? 'unreadable'),
  );
}

function parseEntry(url: string, value: unknown): SearchIndexEntry {
  return read(SearchIndexEntrySchema, url, value);
}

function parseShard(url: string, value: unknown, entry: SearchIndexEntry, key: string): SearchIndexShard {
  const shard = read(SearchIndexShardSchema, url, value);
  if (shard.version !== entry.version) {
    throw malformed(url, `written for version ${shard.version}, the index is ${entry.version}`);
  }
  if (shard.key !== key) throw malformed(url, `holds shard ${shard.key}, expected ${key}`);
  return shard;
}

/** The shards that can hold terms starting with `term` (mirrors the writer's longest-key rule). */
function shardsFor(entry: SearchIndexEntry, term: string): [string, string][] {
  const below = entry.shards.filter(([key]) => key.startsWith(term));
  if (below.length > 0) return below;
  let best: [string, string] | undefined;
  for (const shard of entry.shards) {
    if (term.startsWith(shard[0]) && shard[0].length > (best?.[0].length ?? 0)) best = shard;
  }
  return best ? [best] : [];
}

function firstAtLeast(terms: readonly string[], term: string): number {
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((terms[middle] ?? '') < term) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Marks the cards of one query term: 2 where a card holds the word itself, 1 where only a longer word. */
function mark(term: string, shards: readonly SearchIndexShard[], docs: number, url: string): Uint8Array {
  const marks = new Uint8Array(docs);
  for (const shard of shards) {
    for (let i = firstAtLeast(shard.terms, term); i < shard.terms.length; i++) {
      const indexed = shard.terms[i] ?? '';
      if (!indexed.startsWith(term)) break;
      const level = indexed === term ? 2 : 1;
      const deltas = shard.postings[i] ?? [];
      let position = -1;
      for (let n = 0; n < deltas.length; n++) {
        const delta = deltas[n];
        // Positions must rise strictly and stay below the doc count; anything else is a corrupt file.
        if (typeof delta !== 'number' || !Number.isInteger(delta) || (n > 0 && delta <= 0)) {
          throw malformed(url, `bad posting for "${indexed}"`);
        }
        position = n === 0 ? delta : position + delta;
        if (position < 0 || position >= docs) throw malformed(url, `position out of range for "${indexed}"`);
        if ((marks[position] ?? 0) < level) marks[position] = level;
      }
    }
  }
  return marks;
}

/** Orders matching cards: more whole-word matches first, then lower position (newer) first. */
function rank(marks: readonly Uint8Array[], docs: number): number[] {
  const buckets: number[][] = Array.from({ length: marks.length + 1 }, () => []);
  for (let position = 0; position < docs; position++) {
    let exact = 0;
    let matched = true;
    for (const termMarks of marks) {
      const level = termMarks[position] ?? 0;
      if (level === 0) {
        matched = false;
        break;
      }
      if (level === 2) exact++;
    }
    if (matched) buckets[exact]?.push(position);
  }
  return buckets.reverse().flat();
}

/**
 * The cards (by index in `cards`, newest first) matching a query by the index's rules, ranked as the
 * index ranks: every query term as a prefix of one of the card's terms, whole-word matches first.
 * For the few cards the index does not hold yet (the tail, decision 037).
 */
export function matchCards(cards: readonly ThreadCard[], query: string): number[] {
  const terms = queryTerms(query);
  if (terms.length === 0 || cards.length === 0) return [];
  const own = cards.map((card) => [...cardSearchTerms(card)]);
  const marks = terms.map((term) =>
    Uint8Array.from(own, (words) =>
      words.includes(term) ? 2 : words.some((word) => word.startsWith(term)) ? 1 : 0,
    ),
  );
  return rank(marks, cards.length);
}

/**
 * A search over the static index. `load` fetches and parses one JSON file (e.g. fetchJson); the entry
 * file and each shard are loaded at most once, except after a failed load, which is tried again.
 */
export function createCatalogueSearch(load: (url: string) => Promise<unknown>): CatalogueSearch {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(url: string, parse: (value: unknown) => T): Promise<T> => {
    let promise = memo.get(url) as Promise<T> | undefined;
    if (!promise) {
      const loading = load(url).then(parse);
      memo.set(url, loading);
      // Only its own entry: the memo may have been cleared and refilled meanwhile.
      loading.catch(() => memo.get(url) === loading && memo.delete(url));
      promise = loading;
    }
    return promise;
  };

  const termMarks = async (entry: SearchIndexEntry, term: string) => {
    const targets = shardsFor(entry, term);
    const shards = await Promise.all(
      targets.map(([key, file]) => {
        const url = `${SHARD_BASE}${file}`;
        return once(url, (value) => parseShard(url, value, entry, key));
      }),
    );
    return mark(term, shards, entry.docs, targets.map(([, file]) => file).join(', '));
  };

  return {
    match: matchCards,
    async search(query) {
      const entry = await once(ENTRY_URL, (value) => parseEntry(ENTRY_URL, value));
      const terms = queryTerms(query);
      if (terms.length === 0) return { version: entry.version, positions: [] };
      try {
        const marks = await Promise.all(terms.map((term) => termMarks(entry, term)));
        return { version: entry.version, positions: rank(marks, entry.docs) };
      } catch (error) {
        // A publish removes the old shards: the next search starts again from the new entry file.
        memo.clear();
        throw error;
      }
    },
  };
}
