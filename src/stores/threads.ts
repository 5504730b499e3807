import { map } from 'nanostores';
import { pageCount, type CatalogueListKey } from '../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { fetchPage } from './catalogue-pages.ts';
import { catalogueVersion } from './manifest.ts';

export interface ThreadListState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The catalogue version the loaded pages belong to; null for none or a build without one. */
  version: string | null;
  /** The cards of each page loaded so far, first page first. */
  pages: readonly (readonly ThreadCard[])[];
  /** Cards in the whole list; null until a page has told. */
  total: number | null;
}

export const IDLE_LIST: ThreadListState = { status: 'idle', version: null, pages: [], total: null };

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
  cards: readonly ThreadCard[];
  total: number;
  version: string | null;
}

/** A list whose first page is the one pre-rendered into the HTML. */
export function preRenderedList({ cards, total, version }: PreRenderedPage): ThreadListState {
  return { status: 'ready', version, pages: [cards], total };
}

/** Starts a list from the page pre-rendered into the HTML, so its first page is never fetched again. */
export function seedList(list: CatalogueListKey, page: PreRenderedPage): void {
  if (!$threadLists.get()[list]) $threadLists.setKey(list, preRenderedList(page));
}

/** A page of another catalogue version than the pages loaded with it. */
class VersionMismatch extends Error {}

/** Loads pages until `count` are there (or the list ends); every page must be of `version`. */
async function fillPages(
  list: CatalogueListKey,
  count: number,
  version: string,
  start: { pages: (readonly ThreadCard[])[]; total: number | null },
  force: boolean,
): Promise<{ pages: (readonly ThreadCard[])[]; total: number | null }> {
  const pages = [...start.pages];
  let total = start.total;
  while (pages.length < count && (total === null || pages.length < pageCount(total))) {
    const page = await fetchPage(list, pages.length + 1, { version, force });
    if (version && page.version !== version) throw new VersionMismatch();
    pages.push(page.cards);
    total = page.total;
    if (page.page >= page.pages) break;
  }
  return { pages, total };
}

/**
 * Makes sure the first `count` pages of a list are loaded (the first load, 'Show more', 'Try Again'
 * with `force`). Cards already shown stay while the next page loads. When a page disagrees with the
 * manifest or is missing (the catalogue changed: it may have shrunk), the manifest is read again and,
 * if its version moved, the list starts over on the new one, so a list never mixes two versions.
 */
export async function loadPages(
  list: CatalogueListKey,
  count: number,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  const state = listState($threadLists.get(), list);
  if (state.status === 'loading') return;
  $threadLists.setKey(list, { ...state, status: 'loading' });
  let version = await catalogueVersion();
  try {
    const keep = !force && (!version || state.version === version);
    let result;
    try {
      result = await fillPages(
        list,
        count,
        version,
        keep ? { pages: [...state.pages], total: state.total } : EMPTY,
        force,
      );
    } catch (error) {
      const fresh = await catalogueVersion({ force: true });
      if (fresh === version) throw error;
      version = fresh;
      result = await fillPages(list, count, version, EMPTY, force);
    }
    $threadLists.setKey(list, { status: 'ready', version: version || null, ...result });
  } catch {
    $threadLists.setKey(list, { ...listState($threadLists.get(), list), status: 'error' });
  }
}

const EMPTY = { pages: [], total: null };
