import { atom } from 'nanostores';
import { CATALOGUE_PAGE_SIZE, type CataloguePage } from '../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import type { CatalogueSearch } from '../lib/catalogue-search.ts';
import { fetchJson, HttpStatusError } from '../lib/fetch-json.ts';
import { fetchPage } from './catalogue-pages.ts';
import { catalogueIds, type CatalogueIds } from './manifest.ts';

export interface SearchState {
  /** The query the results belong to; '' when no search is active. */
  query: string;
  /** 'searching' for a new query (the cards shown are the previous answer's); 'loading' for more matches. */
  status: 'idle' | 'searching' | 'loading' | 'ready' | 'error';
  /**
   * Every match's position in the All list as served (the tail's cards first: decision 037), best
   * first: the tail's matches (the newest), then the index's.
   */
  positions: readonly number[];
  /** The cards of the matches shown so far. */
  cards: readonly ThreadCard[];
  /** How many of All's first cards were the tail when the positions were worked out. */
  tail: number;
}

const IDLE: SearchState = { query: '', status: 'idle', positions: [], cards: [], tail: 0 };

/** The catalogue search: its query, its matches and the cards shown for them. */
export const $search = atom<SearchState>(IDLE);

// The index (and the code that reads it) is only fetched once somebody searches; a new catalogue
// version needs a new engine.
// The promise is kept, so searches typed while the code loads share one engine (one index download).
let engine: { version: string; search: Promise<CatalogueSearch> } | null = null;
let latest = 0;

function engineFor(version: string): Promise<CatalogueSearch> {
  if (!engine || engine.version !== version) {
    engine = {
      version,
      search: import('../lib/catalogue-search.ts').then(({ createCatalogueSearch }) =>
        createCatalogueSearch((url) => fetchJson(url)),
      ),
    };
  }
  return engine.search;
}

/**
 * All's first page as the manifest names it, or null when it is of another version or head (the
 * catalogue moved). Its first `tail` cards are the threads the index does not hold yet (decision 037).
 */
async function firstAllPage({ version, head }: CatalogueIds): Promise<CataloguePage | null> {
  const page = await fetchPage('all', 1, { version, head });
  if (version && (page.version !== version || (page.head !== undefined && page.head !== head))) return null;
  return page;
}

/**
 * A page of All the index points into, or null when it is gone: the catalogue moved on since the
 * manifest was read (a shorter list), and the search is worked out again on the new one.
 */
async function pageOrMoved(number: number, version: string): Promise<CataloguePage | null> {
  return fetchPage('all', number, { version, keep: false }).catch((error: unknown) => {
    if (error instanceof HttpStatusError && error.status === 404) return null;
    throw error;
  });
}

/**
 * The cards at the given positions of the All list as served (the tail's cards first, then the full
 * export's). An index position p is All file ⌊p / 24⌋ + 1 at p mod 24, after the tail on file 1; so
 * All position q is the tail's card q below `tail`, else index position q − tail.
 */
async function cardsAt(
  positions: readonly number[],
  version: string,
  first: CataloguePage,
): Promise<ThreadCard[] | null> {
  const tail = first.tail ?? 0;
  const place = (position: number) => {
    if (position < tail) return { file: 1, index: position };
    const indexed = position - tail;
    const file = Math.floor(indexed / CATALOGUE_PAGE_SIZE) + 1;
    return { file, index: (indexed % CATALOGUE_PAGE_SIZE) + (file === 1 ? tail : 0) };
  };
  const fileNumbers = [...new Set(positions.map((position) => place(position).file))].filter((n) => n > 1);
  const pages = new Map<number, CataloguePage | null>([
    [1, first],
    ...(await Promise.all(
      fileNumbers.map(async (number) => [number, await pageOrMoved(number, version)] as const),
    )),
  ]);
  const cards: ThreadCard[] = [];
  for (const position of positions) {
    const { file, index } = place(position);
    const page = pages.get(file);
    // Pages of another catalogue than the index: the positions mean other cards.
    if (!page || (version && page.version !== version)) return null;
    const card = page.cards[index];
    if (card) cards.push(card);
  }
  return cards;
}

/** The matches of a query among the tail's cards first (the newest), then the index's, and the first cards. */
async function find(
  query: string,
  ids: CatalogueIds,
): Promise<{ positions: number[]; cards: ThreadCard[]; tail: number } | null> {
  const search = await engineFor(ids.version);
  const result = await search.search(query);
  if (ids.version && result.version !== ids.version) return null;
  const first = await firstAllPage(ids);
  if (!first) return null;
  // The index holds the full export only: the tail is matched here, by the index's own rules.
  const tail = first.cards.slice(0, first.tail ?? 0);
  const positions = [
    ...search.match(tail, query),
    ...result.positions.map((position) => position + tail.length),
  ];
  const cards = await cardsAt(positions.slice(0, CATALOGUE_PAGE_SIZE), ids.version, first);
  return cards && { positions, cards, tail: tail.length };
}

/**
 * The pauses before each search again after the catalogue moved under one: the first at once (a
 * new version was just published); the later ones give the instances behind a load balancer time to
 * agree (decision 036: each serves its newest version, and one may be a moment behind the others, so
 * the manifest and the pages of one search can come from two versions more than once in a row).
 */
export const CATALOGUE_MOVED_PAUSES_MS = [0, 500, 1500] as const;

async function run(query: string, ticket: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const found = await find(query, await catalogueIds({ force: attempt > 0 }));
    if (ticket !== latest) return;
    if (found) {
      $search.set({ query: query.trim(), status: 'ready', ...found });
      return;
    }
    // The catalogue changed while searching: read the new manifest and search it again.
    const pause = CATALOGUE_MOVED_PAUSES_MS[attempt];
    if (pause === undefined) throw new Error('The catalogue keeps changing');
    engine = null;
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    if (ticket !== latest) return;
  }
}

/** Searches the catalogue; an empty query ends the search. Only the newest query's answer is kept. */
export async function searchCatalogue(query: string): Promise<void> {
  const ticket = ++latest;
  const trimmed = query.trim();
  if (trimmed === '') {
    $search.set(IDLE);
    return;
  }
  // The previous answer's cards stay until the new ones are there; the status says what is going on.
  $search.set({ ...$search.get(), query: trimmed, status: 'searching' });
  try {
    // Untrimmed: a finished last word ("focus the ") is a word, an unfinished one a prefix.
    await run(query, ticket);
  } catch {
    if (ticket === latest) $search.set({ ...$search.get(), status: 'error' });
  }
}

/** Adds the next page of matches to the results. */
export async function showMoreResults(): Promise<void> {
  const state = $search.get();
  if (state.status !== 'ready' || state.cards.length >= state.positions.length) return;
  const ticket = latest;
  $search.set({ ...state, status: 'loading' });
  try {
    const ids = await catalogueIds();
    const next = state.positions.slice(state.cards.length, state.cards.length + CATALOGUE_PAGE_SIZE);
    const first = await firstAllPage(ids);
    // Positions worked out past another tail mean other cards: search again.
    const cards = first && (first.tail ?? 0) === state.tail ? await cardsAt(next, ids.version, first) : null;
    if (ticket !== latest) return;
    if (cards === null) return void (await searchCatalogue(state.query));
    $search.set({ ...state, status: 'ready', cards: [...state.cards, ...cards] });
  } catch {
    if (ticket === latest) $search.set({ ...$search.get(), status: 'error' });
  }
}
