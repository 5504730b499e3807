import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode } from 'react';
import { isThreadFilter, topicListKey, type CatalogueListKey } from '../../contract/catalogue-pages.ts';
import type { Manifest } from '../../contract/manifest.ts';
import { TEXTS } from '../../contract/texts.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import {
  filterOfPath,
  filterPagePath,
  THREAD_FILTERS,
  type ThreadFilter,
} from '../../contract/thread-filter.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { readQueryParam, writeQueryParams } from '../lib/url-state.ts';
import { $search, searchCatalogue } from '../stores/search.ts';
import {
  $threadLists,
  IDLE_LIST,
  loadPages,
  preRenderedList,
  refreshIfMoved,
  seedList,
} from '../stores/threads.ts';
import CatalogueSearchBox from '../components/react/CatalogueSearchBox.tsx';
import FreshnessLine from '../components/react/FreshnessLine.tsx';
import SearchResults, { searchStatusLine } from '../components/react/SearchResults.tsx';
import ThreadGrid, { ThreadGridSkeleton } from '../components/react/ThreadGrid.tsx';
import TopicNav, { type TopicNavigation } from '../components/react/TopicNav.tsx';

interface Props {
  /** The first page of the list, rendered into the HTML at build time. */
  initialCards: readonly ThreadCard[];
  /** How many cards the list holds in the build's catalogue. */
  initialTotal: number;
  /** The filter whose first cards are in the HTML: All on the home page, Text or Images on theirs. */
  initialFilter?: ThreadFilter | undefined;
  builtManifest: Manifest | null;
  /** A topic page's topic; without it, the home page's filters and search. */
  topic?: { tag: string; slug: string } | undefined;
  /** The topics linked under the search box. */
  topicNavigation: TopicNavigation;
  /**
   * The freshness line as static HTML in an Astro slot, which React leaves alone: home hydrates the
   * grid only on first use and updates the line's age itself (components/react/freshness-line.ts).
   * Without it the grid renders the line.
   */
  freshness?: ReactNode;
}

/** Wait after the last keystroke before searching. */
const SEARCH_DELAY_MS = 150;

/** The filter the address asks for: `?filter=` (set by the island), else the filter page it is. */
function filterFromUrl(): ThreadFilter {
  const value = readQueryParam('filter');
  return isThreadFilter(value) ? value : filterOfPath(window.location.pathname);
}

/**
 * The thread grid of the home and filter pages (All / Text / Images, search) or of a topic page;
 * readable before it hydrates, and its controls work before it (a press is replayed once it runs)
 * and without JavaScript: the filters are submit buttons of a GET form whose `formaction` is the
 * filter's pre-rendered page, the search box a GET form (decision 042). With JavaScript the filter
 * and the search live in the address (?filter=text, ?q=...), so they survive a reload, can be
 * shared, and follow Back and Forward.
 */
export default function ThreadBrowser({
  initialCards,
  initialTotal,
  initialFilter = 'all',
  builtManifest,
  topic,
  topicNavigation,
  freshness,
}: Props) {
  const hydrated = useHydrated();
  const lists = useStore($threadLists);
  const search = useStore($search);
  // The pre-rendered HTML is the page's own list: the address is read once the island runs.
  const [filter, setFilter] = useState<ThreadFilter>(initialFilter);
  const [query, setQuery] = useState('');
  // The block of cards 'Show more threads' asked for, on which list: it takes the focus once it is
  // shown, so the keyboard goes on reading where the new cards start (the button may be gone by then).
  const [focusRequest, setFocusRequest] = useState<{ list: CatalogueListKey; block: number } | null>(null);
  const home = !topic;
  const firstList: CatalogueListKey = topic ? topicListKey(topic.slug) : initialFilter;
  const listKey: CatalogueListKey = topic ? firstList : filter;
  // A focus asked for on another list (a filter chosen since) no longer applies.
  const focusBlock = focusRequest?.list === listKey ? focusRequest.block : null;

  useEffect(() => {
    seedList(firstList, {
      cards: initialCards,
      total: initialTotal,
      version: builtManifest?.version ?? null,
      head: builtManifest?.head ?? null,
    });
  }, [firstList, initialCards, initialTotal, builtManifest]);

  useEffect(() => {
    // The pre-render may be older than the served catalogue (an approval since the site was built):
    // the list then starts over on the served one.
    if (hydrated) void refreshIfMoved(firstList);
  }, [hydrated, firstList]);

  useEffect(() => {
    if (!home) return;
    const fromUrl = () => {
      const next = filterFromUrl();
      setFilter(next);
      // The page's own list is on the page already (a Back to it keeps the cards it has).
      if (next !== firstList) void loadPages(next, 1);
      // The search itself follows the query (the effect below).
      setQuery(readQueryParam('q') ?? '');
    };
    fromUrl();
    window.addEventListener('popstate', fromUrl);
    return () => window.removeEventListener('popstate', fromUrl);
  }, [home, firstList]);

  useEffect(() => {
    if (!hydrated || !home) return;
    const timer = setTimeout(() => {
      // Replaced with the search, not per keystroke: browsers throttle history updates.
      writeQueryParams({ q: query.trim() || null }, { push: false });
      void searchCatalogue(query);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, hydrated, home]);

  const list =
    lists[listKey] ??
    (listKey === firstList
      ? preRenderedList({
          cards: initialCards,
          total: initialTotal,
          version: builtManifest?.version ?? null,
          head: builtManifest?.head ?? null,
        })
      : IDLE_LIST);
  const pages = list.pages;
  const shown = pages.reduce((count, cards) => count + cards.length, 0);
  const total = list.total ?? 0;
  const noun = topic
    ? `threads on #${topic.tag}`
    : (THREAD_FILTERS.find((f) => f.id === filter)?.noun ?? 'threads');
  const searching = home && search.query !== '';

  function choose(next: ThreadFilter) {
    setFilter(next);
    setQuery('');
    // From a filter page too, the address becomes the home page's with the filter in its query.
    writeQueryParams({ filter: next === 'all' ? null : next, q: null }, { push: true, pathname: '/' });
    void loadPages(next, 1);
  }

  let status = '';
  if (list.status === 'loading' && pages.length === 0) status = TEXTS.loadingThreads;
  // The error itself is announced by the alert below.
  else if (list.total !== null && list.status !== 'error')
    status = total === 0 ? TEXTS.noThreadsForFilter : `Showing ${shown} of ${total} ${noun}`;

  return (
    <section
      className="thread-browser"
      aria-labelledby="threads-heading"
      data-hydrated={hydrated ? '' : undefined}
    >
      <div className="thread-browser__bar">
        <h1 id="threads-heading" className="thread-browser__title">
          {topic ? `#${topic.tag}` : 'Design threads'}
        </h1>
        {home && (
          // The group is a div inside the form: a form may not take the group role (axe aria-allowed-role).
          <form method="get" className="filter-form">
            <div className="filter-group" role="group" aria-label="Filter threads">
              {THREAD_FILTERS.map(({ id, label }) => (
                <button
                  key={id}
                  type="submit"
                  formAction={filterPagePath(id)}
                  className="filter-button"
                  aria-pressed={!searching && filter === id}
                  onClick={(event) => {
                    event.preventDefault();
                    choose(id);
                  }}
                >
                  {label}
                </button>
              ))}
            </div>
          </form>
        )}
      </div>
      {home && <CatalogueSearchBox value={query} onChange={setQuery} hydrated={hydrated} />}
      <TopicNav navigation={topicNavigation} current={topic?.slug} />
      {freshness ?? <FreshnessLine builtManifest={builtManifest} />}
      {/* One live region for the list and the search, so every change of its text is announced. */}
      <p className="thread-browser__status" role="status" aria-live="polite">
        {searching ? searchStatusLine(search) : status}
      </p>
      {searching ? (
        <SearchResults />
      ) : (
        <>
          {list.status === 'loading' && pages.length === 0 && <ThreadGridSkeleton />}
          <ThreadGrid pages={pages} focusBlock={focusBlock} onFocused={() => setFocusRequest(null)} />
          {list.status === 'error' ? (
            <div className="notice notice--error" role="alert" data-asks-for-more="">
              <p className="notice__title">{TEXTS.threadsLoadFailed}</p>
              <p>{TEXTS.threadsLoadHint}</p>
              <button
                type="button"
                className="button"
                onClick={() =>
                  void (pages.length === 0
                    ? loadPages(listKey, 1, { force: true })
                    : loadPages(listKey, pages.length + 1))
                }
              >
                {TEXTS.tryAgain}
              </button>
            </div>
          ) : (
            // Only once the island runs: without JavaScript there is no next page to show (a dead
            // button), and until it runs a press is replayed anyway (it hydrates on first use).
            hydrated &&
            shown < total && (
              <div className="thread-browser__more" data-asks-for-more="">
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setFocusRequest({ list: listKey, block: pages.length });
                    void loadPages(listKey, pages.length + 1);
                  }}
                  // Not disabled while loading: a disabled button would drop the keyboard focus.
                  aria-disabled={list.status === 'loading'}
                >
                  {list.status === 'loading' ? TEXTS.loadingThreads : 'Show more threads'}
                </button>
              </div>
            )
          )}
        </>
      )}
    </section>
  );
}
