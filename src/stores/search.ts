import { atom } from 'nanostores';
import { CATALOGUE_PAGE_SIZE } from '../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import type { CatalogueSearch } from '../lib/catalogue-search.ts';
import { fetchJson } from '../lib/fetch-json.ts';
import { fetchPage } from './catalogue-pages.ts';
import { catalogueVersion } from './manifest.ts';

export interface SearchState {
  /** The query the results belong to; '' when no search is active. */
  query: string;
  /** 'searching' for a new query (the cards shown are the previous answer's); 'loading' for more matches. */
  status: 'idle' | 'searching' | 'loading' | 'ready' | 'error';
  /** Every match's position in the catalogue ('All' order), best first. */
  positions: readonly number[];
  /** The cards of the matches shown so far. */
  cards: readonly ThreadCard[];
}

const IDLE: SearchState = { query: '', status: 'idle', positions: [], cards: [] };

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

/** The cards at the given catalogue positions, read from the pages of the 'All' list. */
async function cardsAt(positions: readonly number[], version: string): Promise<ThreadCard[] | null> {
  const pageNumbers = [
    ...new Set(positions.map((position) => Math.floor(position / CATALOGUE_PAGE_SIZE) + 1)),
  ];
  const pages = new Map(
    await Promise.all(
      pageNumbers.map(
        async (number) => [number, await fetchPage('all', number, { version, keep: false })] as const,
      ),
    ),
  );
  const cards: ThreadCard[] = [];
  for (const position of positions) {
    const page = pages.get(Math.floor(position / CATALOGUE_PAGE_SIZE) + 1);
    // Pages of another catalogue than the index: the positions mean other cards.
    if (!page || (version && page.version !== version)) return null;
    const card = page.cards[position % CATALOGUE_PAGE_SIZE];
    if (card) cards.push(card);
  }
  return cards;
}

async function run(query: string, ticket: number, retried = false): Promise<void> {
  const version = await catalogueVersion({ force: retried });
  const result = await (await engineFor(version)).search(query);
  const positions = result.positions;
  const cards =
    version && result.version !== version
      ? null
      : await cardsAt(positions.slice(0, CATALOGUE_PAGE_SIZE), version);
  if (ticket !== latest) return;
  if (cards === null) {
    // The catalogue changed while searching: read the new manifest and search it once more.
    if (retried) throw new Error('The catalogue keeps changing');
    engine = null;
    return run(query, ticket, true);
  }
  $search.set({ query: query.trim(), status: 'ready', positions, cards });
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
    const version = await catalogueVersion();
    const next = state.positions.slice(state.cards.length, state.cards.length + CATALOGUE_PAGE_SIZE);
    const cards = await cardsAt(next, version);
    if (ticket !== latest) return;
    if (cards === null) return void (await searchCatalogue(state.query));
    $search.set({ ...state, status: 'ready', cards: [...state.cards, ...cards] });
  } catch {
    if (ticket === latest) $search.set({ ...$search.get(), status: 'error' });
  }
}
