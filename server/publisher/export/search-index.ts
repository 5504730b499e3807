import { createHash } from 'node:crypto';
import {
  cardSearchTerms,
  SEARCH_ENTRY_FILE,
  SEARCH_INDEX_FORMAT,
  type SearchIndexEntry,
  type SearchIndexShard,
} from '../../../contract/search-terms.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';

/** Every shard key starts with this many characters of its terms. */
export const BASE_KEY_LENGTH = 2;

/**
 * Shard keys never grow past this many characters: the hex file name (at most 4 bytes a character)
 * stays far below the 255 bytes filesystems allow.
 */
export const MAX_KEY_LENGTH = 16;

/**
 * A shard whose JSON would pass this is split by the next character of its terms. Brotli shrinks a
 * shard 3 to 5 times, so a query of a few whole words stays far below the 300 KB first-search budget
 * (decision 010), and only a few hundred extra files are written.
 */
export const SHARD_SPLIT_BYTES = 64_000;

export interface TermPostings {
  term: string;
  /** The delta-encoded positions as JSON, written once and reused for sizing and for the shard body. */
  json: string;
}

function codePoints(term: string): number {
  let count = 0;
  for (let i = 0; i < term.length; i++) {
    const unit = term.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}

/** The first `length` characters (code points) of a term. */
export function prefix(term: string, length: number): string {
  let end = 0;
  for (let seen = 0; seen < length && end < term.length; seen++) {
    end += (term.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  }
  return term.slice(0, end);
}

/** Delta-encodes ascending positions in place (the list is not used again) and writes them as JSON. */
export function deltaJson(positions: number[]): string {
  for (let i = positions.length - 1; i > 0; i--) positions[i] = (positions[i] ?? 0) - (positions[i - 1] ?? 0);
  return JSON.stringify(positions);
}

/** Term → ascending card positions (a card counts once per term). */
function invert(cards: readonly ThreadCard[]): Map<string, number[]> {
  const postings = new Map<string, number[]>();
  const names = new Map<string, readonly string[]>();
  cards.forEach((card, position) => {
    for (const term of cardSearchTerms(card, names)) {
      const list = postings.get(term);
      if (list) list.push(position);
      else postings.set(term, [position]);
    }
  });
  return postings;
}

function size(items: readonly TermPostings[]): number {
  return items.reduce((sum, item) => sum + item.term.length + item.json.length + 4, 0);
}

/** Groups sorted items by their first `length` characters; each group stays sorted. */
function groupByPrefix(items: readonly TermPostings[], length: number): Map<string, TermPostings[]> {
  const groups = new Map<string, TermPostings[]>();
  for (const item of items) {
    const key = prefix(item.term, length);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Splits a too-large shard by the next character. Terms no longer than the key stay in a shard under
 * the key itself, so a term still lives under the longest key that prefixes it (the reader's rule).
 */
function split(key: string, items: TermPostings[], limit: number, shards: [string, TermPostings[]][]): void {
  const keyLength = codePoints(key);
  if (items.length === 1 || keyLength >= MAX_KEY_LENGTH || size(items) <= limit) {
    shards.push([key, items]);
    return;
  }
  const own = items.filter((item) => codePoints(item.term) === keyLength);
  if (own.length > 0) shards.push([key, own]);
  const longer = items.filter((item) => codePoints(item.term) > keyLength);
  for (const [childKey, child] of groupByPrefix(longer, keyLength + 1)) split(childKey, child, limit, shards);
}

function hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

function shardBody(version: string, key: string, items: readonly TermPostings[]): string {
  // Written by hand so each term's postings JSON is reused rather than built again from numbers.
  const head: Omit<SearchIndexShard, 'postings'> = { version, key, terms: items.map((item) => item.term) };
  return `${JSON.stringify(head).slice(0, -1)},"postings":[${items.map((item) => item.json).join(',')}]}`;
}

/** One shard file: its key, its file name (under search/) and its body. */
export type ShardFile = [key: string, file: string, body: string];

/**
 * The shard files of `items` (sorted by term, in plain code-unit order): grouped by their first
 * BASE_KEY_LENGTH characters, each group split while too large. A group's shards depend on its own
 * terms only, so the items may be any set of whole groups (the export passes one partition at a time).
 */
export function shardFiles(items: readonly TermPostings[], version: string, splitBytes: number): ShardFile[] {
  const shards: [string, TermPostings[]][] = [];
  for (const [key, group] of groupByPrefix(items, BASE_KEY_LENGTH)) split(key, group, splitBytes, shards);
  return shards.map(([key, group]) => {
    const body = shardBody(version, key, group);
    // The content hash in the name lets a browser cache a shard without ever pairing it with another version.
    return [key, `${hex(key)}.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.json`, body];
  });
}

/** The entry file's body: every shard's [key, file], sorted by key. */
export function searchEntryBody(version: string, docs: number, shards: [string, string][]): string {
  const entry: SearchIndexEntry = {
    format: SEARCH_INDEX_FORMAT,
    version,
    docs,
    shards: [...shards].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
  return JSON.stringify(entry);
}

/**
 * The static search index's files (paths relative to the catalogue folder, under search/): an entry
 * file and one shard per term prefix. Positions are indices into `cards`, i.e. into the All pages.
 * Same cards and version give byte-identical files. `splitBytes` is for tests: the size past which a
 * shard is split. Holds the whole index in memory: the export builds the same files in bounded
 * memory (search-spill.ts); this stays their reference.
 */
export function searchIndexFiles(
  cards: readonly ThreadCard[],
  version: string,
  { splitBytes = SHARD_SPLIT_BYTES }: { splitBytes?: number } = {},
): [string, string][] {
  const postings = invert(cards);
  // Plain code-unit order, not localeCompare: the same on every machine, and prefixes stay contiguous.
  const items = [...postings.keys()]
    .sort()
    .map((term): TermPostings => ({ term, json: deltaJson(postings.get(term) ?? []) }));
  const shards = shardFiles(items, version, splitBytes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const files: [string, string][] = shards.map(([, file, body]) => [`search/${file}`, body]);
  files.push([
    SEARCH_ENTRY_FILE,
    searchEntryBody(
      version,
      cards.length,
      shards.map(([key, file]) => [key, file]),
    ),
  ]);
  return files;
}
