import type { ThreadCard } from './thread-card.ts';
import { z } from './zod.ts';

/** Bumped when the layout of the search files changes; the reader refuses a format it does not know. */
export const SEARCH_INDEX_FORMAT = 1;

/** The search index's entry file, relative to the catalogue folder (served under /data/). */
export const SEARCH_ENTRY_FILE = 'search/index.json';

/**
 * The entry file: what a first search downloads before any shard. `shards` lists [key, file name]
 * pairs sorted by key; a term lives in the shard with the longest key that is a prefix of it.
 */
const SHARD_PAIR = 'a shard is not a [key, file] pair';
const SHARD_FILE = 'bad shard file name';

export const SearchIndexEntrySchema = z.object({
  format: z.literal(SEARCH_INDEX_FORMAT, {
    error: (issue) => `format ${String(issue.input)} is not supported`,
  }),
  /** The catalogue version the index was written for (the manifest's and every page file's). */
  version: z.string({ error: 'no version' }),
  /** How many cards were indexed: every position is below it. */
  docs: z.int({ error: 'bad doc count' }).check(z.nonnegative('bad doc count')),
  shards: z.array(
    z.tuple(
      [
        z.string({ error: SHARD_PAIR }),
        // The file name becomes part of a URL: it must stay inside the search folder.
        z.string({ error: SHARD_PAIR }).check(z.regex(/^[\w-][\w.-]*$/, SHARD_FILE)),
      ],
      { error: SHARD_PAIR },
    ),
    { error: 'no shard list' },
  ),
});
export type SearchIndexEntry = z.infer<typeof SearchIndexEntrySchema>;

const UNSORTED = 'terms are not sorted strings';
const MISMATCHED = 'postings do not match the terms';

/**
 * One shard: its terms sorted by UTF-16 code units, and for each term the card positions that hold
 * it, ascending and delta-encoded (the first is absolute, each next one the gap to the previous).
 */
export const SearchIndexShardSchema = z
  .object({
    version: z.string(),
    key: z.string(),
    // Sorted strictly ascending, or the reader's binary search would miss terms without a sound.
    terms: z
      .array(z.string({ error: UNSORTED }), { error: UNSORTED })
      .check(z.refine((terms) => terms.every((term, i) => i === 0 || (terms[i - 1] ?? '') < term), UNSORTED)),
    // Only the lists here: their numbers are checked where the reader decodes them anyway.
    postings: z.array(z.custom<number[]>(Array.isArray, MISMATCHED), { error: MISMATCHED }),
  })
  .check(z.refine((shard) => shard.postings.length === shard.terms.length, MISMATCHED));
export type SearchIndexShard = z.infer<typeof SearchIndexShardSchema>;

/** Terms shorter than this are neither indexed nor searched: they match too much to help. */
export const MIN_TERM_LENGTH = 2;

/**
 * Longer words are cut to this many characters on both sides: a pasted URL or a run of text without
 * spaces (Chinese, Japanese) must not bloat the index, and the cut keeps prefixes matching.
 */
export const MAX_TERM_LENGTH = 32;

// Short on purpose: words like "not" or "no" change what a design post says, so they stay searchable.
const STOP_WORDS = new Set(
  (
    'an and are as at be but by for from has have if in into is it its of on or so than that the their ' +
    'then there these they this to was we were will with you your'
  ).split(' '),
);

const SEPARATORS = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}/gu;
const NON_ASCII = /[\u0080-\uffff]/;

/** Lower case, compatibility-decomposed, marks dropped: "Café" and "CAFE" fold to the same text. */
export function foldText(text: string): string {
  // Lower case first: lower-casing can itself produce combining marks (e.g. "İ" → "i̇").
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(MARKS, '') : lower;
}

function clip(word: string): string {
  // Counted in code points so a cut never splits a surrogate pair.
  if (word.length <= MAX_TERM_LENGTH) return word;
  return Array.from(word).slice(0, MAX_TERM_LENGTH).join('');
}

function isTerm(word: string): boolean {
  // A code point takes one or two UTF-16 units: a word of two units may still be a single (astral) letter.
  if (word.length < MIN_TERM_LENGTH) return false;
  if (word.length < 2 * MIN_TERM_LENGTH && Array.from(word).length < MIN_TERM_LENGTH) return false;
  return !STOP_WORDS.has(word);
}

/** The search terms of a text, in order and with repeats: folded, split at non-letters, stop words dropped. */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of foldText(text).split(SEPARATORS)) {
    if (isTerm(word)) terms.push(clip(word));
  }
  return terms;
}

/** Splits a camelCase tag into words: "DesignSystems" → "Design Systems", "UXResearch" → "UX Research". */
function splitCamelCase(tag: string): string {
  return tag.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
}

/** A name's terms plus its parts run together, so "@maren.makes" is also found by "marenmakes". */
function nameTerms(name: string): string[] {
  const terms = searchTerms(name);
  const parts = foldText(name).split(SEPARATORS).filter(Boolean);
  const whole = parts.join('');
  if (parts.length > 1 && isTerm(whole)) terms.push(clip(whole));
  return terms;
}

/** The terms a handle is found by: whole (without "@") and split at "." and "_". */
export function handleTerms(handle: string): string[] {
  return nameTerms(handle);
}

/** The terms a topic tag is found by: whole, and split at camelCase boundaries ("designsystems", "design", "systems"). */
export function topicTerms(tag: string): string[] {
  return [...new Set([...nameTerms(tag), ...nameTerms(splitCamelCase(tag))])];
}

/**
 * The distinct terms a card is found by: its content, author, handle and topic tag. Pass a `names`
 * map when indexing many cards: authors, handles and tags repeat, and their terms are then worked out once.
 */
export function cardSearchTerms(
  card: Pick<ThreadCard, 'content' | 'author' | 'handle' | 'topic_tag'>,
  names?: Map<string, readonly string[]>,
): Set<string> {
  const terms = new Set(searchTerms(card.content));
  const add = (key: string, compute: () => readonly string[]) => {
    let found = names?.get(key);
    if (!found) {
      found = compute();
      names?.set(key, found);
    }
    for (const term of found) terms.add(term);
  };
  // Prefixed keys: the same text as an author and as a tag has different terms.
  add(`a ${card.author}`, () => searchTerms(card.author));
  add(`h ${card.handle}`, () => handleTerms(card.handle));
  const tag = card.topic_tag;
  if (tag) add(`t ${tag}`, () => topicTerms(tag));
  return terms;
}

/**
 * The distinct terms of a search box's text, each to be matched as a prefix. A stop word is kept when
 * it is the last word and still being typed (no separator after it): "an" may become "animation".
 */
export function queryTerms(query: string): string[] {
  const terms = searchTerms(query);
  const words = foldText(query).split(SEPARATORS);
  const last = words.at(-1) ?? '';
  if (STOP_WORDS.has(last)) terms.push(last);
  return [...new Set(terms)];
}
