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

/** Starts a list from the page pre-rendered into the HTML, so its first page is never fetched again. */
export function seedList(
  list: CatalogueListKey,
  { cards, total, version }: { cards: readonly ThreadCard[]; total: number; version: string | null },
): void {
  if ($threadLists.get()[list]) return;
  $threadLists.setKey(list, { status: 'ready', version, pages: [cards], total });
}

/**
 * Makes sure the first `count` pages of a list are loaded (the first load, 'Show more', 'Try Again'
 * with `force`). Cards already shown stay while the next page loads. Pages of an older catalogue
 * than the served one are loaded again, so a list never mixes two versions.
 */
export async function loadPages(
  list: CatalogueListKey,
  count: number,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  const state = listState($threadLists.get(), list);
  if (state.status === 'loading') return;
  $threadLists.setKey(list, { ...state, status: 'loading' });
  try {
    let version = await catalogueVersion();
    let pages = force || (version && state.version !== version) ? [] : [...state.pages];
    let total = pages.length > 0 ? state.total : null;
    let restarted = false;
    while (pages.length < count && (total === null || pages.length < pageCount(total))) {
      const page = await fetchPage(list, pages.length + 1, { version, force });
      if (version && page.version !== version && !restarted) {
        // The catalogue changed after the manifest was read: start again on the new one.
        restarted = true;
        version = await catalogueVersion({ force: true });
        pages = [];
        total = null;
        continue;
      }
      pages.push(page.cards);
      total = page.total;
      if (page.page >= page.pages) break;
    }
    $threadLists.setKey(list, { status: 'ready', version: version || null, pages, total });
  } catch {
    $threadLists.setKey(list, { ...listState($threadLists.get(), list), status: 'error' });
  }
}
