import { map } from 'nanostores';
import { CATALOGUE_PAGE_SIZE, pageCount, type CatalogueListKey } from '../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { fetchPage } from './catalogue-pages.ts';
import { catalogueIds, type CatalogueIds } from './manifest.ts';

export interface ThreadListState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The catalogue version the loaded pages belong to; null for none or a build without one. */
  version: string | null;
  /** The manifest's head the list's first page was written with; null for none (no tail). */
  head: string | null;
  /** The cards shown, CATALOGUE_PAGE_SIZE a page, first page first. */
  pages: readonly (readonly ThreadCard[])[];
  /** Cards in the whole list, the tail's included; null until a first page has told. */
  total: number | null;
  /**
   * Every card read so far, in list order (the page files' cards one after another). It may run
   * past `pages`: a first page carrying the tail (decision 037) holds more than a page's worth.
   */
  cards: readonly ThreadCard[];
  /** Page files read so far; 0 while `cards` are only the pre-rendered ones. */
  files: number;
  /** How many page files the list has; null until one has told. */
  fileCount: number | null;
}

export const IDLE_LIST: ThreadListState = {
  status: 'idle',
  version: null,
  head: null,
  pages: [],
  total: null,
  cards: [],
  files: 0,
  fileCount: null,
};

/** The lists the visitor has opened (home filters, topics), loaded a page at a time. */
export const $threadLists = map<Partial<Record<CatalogueListKey, ThreadListState>>>({});

/** A list's state; idle until something is loaded or seeded. */
export function listState(
  lists: Partial<Record<CatalogueListKey, ThreadListState>>,
  list: CatalogueListKey,
): ThreadListState {
  return lists[list] ?? IDLE_LIST;
}

export interface PreRenderedPage {
  /** The list's first CATALOGUE_PAGE_SIZE cards, the tail's included. */
  cards: readonly ThreadCard[];
  total: number;
  version: string | null;
  /** The built manifest's head; null or absent: the build's catalogue had no tail. */
  head?: string | null | undefined;
}

/** Cuts cards into pages of CATALOGUE_PAGE_SIZE. */
function inPages(cards: readonly ThreadCard[], count: number): ThreadCard[][] {
  const pages: ThreadCard[][] = [];
  for (let page = 0; page < count && page * CATALOGUE_PAGE_SIZE < cards.length; page++) {
    pages.push(cards.slice(page * CATALOGUE_PAGE_SIZE, (page + 1) * CATALOGUE_PAGE_SIZE));
  }
  return pages;
}

/** A list whose first page is the one pre-rendered into the HTML. */
export function preRenderedList({ cards, total, version, head = null }: PreRenderedPage): ThreadListState {
  // Without a tail the first page file is exactly the pre-rendered cards, so it is never fetched
  // again; with one it holds more (the tail's extra cards), read when 'Show more' needs them.
  const whole = !head;
  return {
    status: 'ready',
    version,
    head,
    pages: [cards],
    total,
    cards,
    files: whole ? 1 : 0,
    fileCount: whole ? pageCount(total) : null,
  };
}

/** Starts a list from the page pre-rendered into the HTML, so its first page is never fetched again. */
export function seedList(list: CatalogueListKey, page: PreRenderedPage): void {
  if (!$threadLists.get()[list]) $threadLists.setKey(list, preRenderedList(page));
}

/** A page of another catalogue version, or a first page of another head, than the manifest's. */
class CatalogueMoved extends Error {}

type Loaded = Pick<ThreadListState, 'cards' | 'files' | 'fileCount' | 'total'> & { shown: number };

const EMPTY: Loaded = { cards: [], files: 0, fileCount: null, total: null, shown: 0 };

/**
 * Reads page files until `count` pages of cards are there (or the list ends). Every file must be
 * of `version`, and a first page carrying a tail of `head`, or the list would mix two catalogues.
 */
async function fillList(
  list: CatalogueListKey,
  count: number,
  { version, head }: CatalogueIds,
  start: Loaded,
  force: boolean,
): Promise<Pick<ThreadListState, 'cards' | 'files' | 'fileCount' | 'total' | 'pages'>> {
  let cards = [...start.cards];
  let { files, fileCount, total } = start;
  // Never fewer pages than already shown: a filter chosen again keeps what it showed.
  const shown = Math.max(count, start.shown);
  while (cards.length < shown * CATALOGUE_PAGE_SIZE && (fileCount === null || files < fileCount)) {
    const number = files + 1;
    const page = await fetchPage(list, number, { version, head, force });
    if (version && page.version !== version) throw new CatalogueMoved();
    // A first page without a head has no tail (none of the threads approved since is on this list).
    if (version && number === 1 && page.head !== undefined && page.head !== head) throw new CatalogueMoved();
    if (number === 1) {
      // The pre-rendered cards (if any) are this file's first ones: it replaces them.
      cards = [...page.cards];
      // Only a first page's total counts the tail.
      total = page.total;
    } else {
      cards.push(...page.cards);
    }
    files = number;
    fileCount = page.pages;
  }
  return { cards, files, fileCount, total, pages: inPages(cards, shown) };
}

/**
 * Makes sure the first `count` pages of a list are shown (the first load, 'Show more', 'Try Again'
 * with `force`). Cards already shown stay while the next page loads. A list is its page files' cards
 * one after another, shown CATALOGUE_PAGE_SIZE at a time (a first page may carry the tail and hold
 * more). When a page disagrees with the manifest or is missing (the catalogue changed: it may have
 * shrunk, or an approval rewrote the first pages), the manifest is read again and, if its version or
 * head moved, the list starts over on the new one, so a list never mixes two catalogues.
 */
export async function loadPages(
  list: CatalogueListKey,
  count: number,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  const state = listState($threadLists.get(), list);
  if (state.status === 'loading') return;
  $threadLists.setKey(list, { ...state, status: 'loading' });
  let ids = await catalogueIds();
  try {
    const keep = !force && (!ids.version || (state.version === ids.version && state.head === ids.head));
    let result;
    try {
      result = await fillList(
        list,
        count,
        ids,
        keep ? { ...state, shown: state.pages.length } : EMPTY,
        force,
      );
    } catch (error) {
      const fresh = await catalogueIds({ force: true });
      if (fresh.version === ids.version && fresh.head === ids.head) throw error;
      ids = fresh;
      result = await fillList(list, count, ids, EMPTY, force);
    }
    $threadLists.setKey(list, {
      status: 'ready',
      version: ids.version || null,
      head: ids.version ? ids.head : null,
      ...result,
    });
  } catch {
    $threadLists.setKey(list, { ...listState($threadLists.get(), list), status: 'error' });
  }
}

/**
 * Starts a list over on the served catalogue when it moved since the list was loaded or pre-rendered
 * (an approval since the site was built); a current list is left alone, so a 'Show more' pressed
 * meanwhile is not turned away by a load in progress.
 */
export async function refreshIfMoved(list: CatalogueListKey): Promise<void> {
  const ids = await catalogueIds();
  const state = listState($threadLists.get(), list);
  if (!ids.version || !state.version || state.status === 'loading') return;
  if (state.version !== ids.version || (state.head ?? null) !== (ids.head ?? null)) await loadPages(list, 1);
}
