import type { ThreadCard } from '../../contract/thread-card.ts';
import {
  cardSearchTerms,
  queryTerms,
  SEARCH_ENTRY_FILE,
  SEARCH_INDEX_FORMAT,
  type SearchIndexEntry,
  type SearchIndexShard,
} from '../../contract/search-terms.ts';

// No zod here: this runs in the browser. The checks below are the few that keep a bad file from
// giving wrong positions silently.

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(url: string, what: string): Error {
  return new Error(`Search index file ${url} is malformed: ${what}`);
}

function parseEntry(url: string, value: unknown): SearchIndexEntry {
  if (!isObject(value)) throw malformed(url, 'not an object');
  const { format, version, docs, shards } = value;
  if (format !== SEARCH_INDEX_FORMAT) throw malformed(url, `format ${String(format)} is not supported`);
  if (typeof version !== 'string') throw malformed(url, 'no version');
  if (typeof docs !== 'number' || !Number.isInteger(docs) || docs < 0) throw malformed(url, 'bad doc count');
  if (!Array.isArray(shards)) throw malformed(url, 'no shard list');
  for (const shard of shards as unknown[]) {
    if (!Array.isArray(shard) || typeof shard[0] !== 'string' || typeof shard[1] !== 'string') {
      throw malformed(url, 'a shard is not a [key, file] pair');
    }
    // The file name becomes part of a URL: it must stay inside the search folder.
    if (!/^[\w.-]+$/.test(shard[1]) || shard[1].startsWith('.')) throw malformed(url, 'bad shard file name');
  }
  return { format, version, docs, shards: shards as [string, string][] };
}

function parseShard(url: string, value: unknown, entry: SearchIndexEntry, key: string): SearchIndexShard {
  if (!isObject(value)) throw malformed(url, 'not an object');
  const { version, terms, postings } = value;
  if (version !== entry.version) {
    throw malformed(url, `written for version ${String(version)}, the index is ${entry.version}`);
  }
  if (value.key !== key) throw malformed(url, `holds shard ${String(value.key)}, expected ${key}`);
  // Sorted strictly ascending, or the binary search in mark() would miss terms without a sound.
  if (
    !Array.isArray(terms) ||
    !terms.every((term, i) => typeof term === 'string' && (i === 0 || terms[i - 1] < term))
  ) {
    throw malformed(url, 'terms are not sorted strings');
  }
  if (!Array.isArray(postings) || postings.length !== terms.length || !postings.every(Array.isArray)) {
    throw malformed(url, 'postings do not match the terms');
  }
  // Numbers are checked while decoding (see mark), where they are read anyway.
  return { version, key, terms: terms as string[], postings: postings as number[][] };
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
