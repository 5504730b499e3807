import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode } from 'react';
import { isThreadFilter, topicListKey, type CatalogueListKey } from '../../contract/catalogue-pages.ts';
import type { Manifest } from '../../contract/manifest.ts';
import { TEXTS } from '../../contract/texts.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { THREAD_FILTERS, type ThreadFilter } from '../../contract/thread-filter.ts';
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

function filterFromUrl(): ThreadFilter {
  const value = readQueryParam('filter');
  return isThreadFilter(value) ? value : 'all';
}

/**
 * The thread grid of the home page (All / Text / Images, search) or of a topic page; readable before
 * it hydrates. The filter and the search live in the address (?filter=text, ?q=...), so they survive
 * a reload, can be shared, and follow Back and Forward.
 */
export default function ThreadBrowser({
  initialCards,
  initialTotal,
  builtManifest,
  topic,
  topicNavigation,
  freshness,
}: Props) {
  const hydrated = useHydrated();
  const lists = useStore($threadLists);
  const search = useStore($search);
  // The pre-rendered HTML is always the unfiltered list: the address is read once the island runs.
  const [filter, setFilter] = useState<ThreadFilter>('all');
  const [query, setQuery] = useState('');
  // The block of cards 'Show more threads' asked for, on which list: it takes the focus once it is
  // shown, so the keyboard goes on reading where the new cards start (the button may be gone by then).
  const [focusRequest, setFocusRequest] = useState<{ list: CatalogueListKey; block: number } | null>(null);
  const home = !topic;
  const firstList: CatalogueListKey = topic ? topicListKey(topic.slug) : 'all';
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
      // 'All' is on the page already (a Back to it keeps the cards it has).
      if (next !== 'all') void loadPages(next, 1);
      // The search itself follows the query (the effect below).
      setQuery(readQueryParam('q') ?? '');
    };
    fromUrl();
    window.addEventListener('popstate', fromUrl);
    return () => window.removeEventListener('popstate', fromUrl);
  }, [home]);

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
    writeQueryParams({ filter: next === 'all' ? null : next, q: null }, { push: true });
    void loadPages(next, 1);
  }

  let status = '';
  if (list.status === 'loading' && pages.length === 0) status = TEXTS.loadingThreads;
  // The error itself is announced by the alert below.
  else if (list.total !== null && list.status !== 'error')
    status = total === 0 ? TEXTS.noThreadsForFilter : `Showing ${shown} of ${total} ${noun}`;

  return (
    <section className="thread-browser" aria-labelledby="threads-heading">
      <div className="thread-browser__bar">
        <h1 id="threads-heading" className="thread-browser__title">
          {topic ? `#${topic.tag}` : 'Design threads'}
        </h1>
        {home && (
          <div className="filter-group" role="group" aria-label="Filter threads">
            {THREAD_FILTERS.map(({ id, label }) => (
              <button
                key={id}
                type="button"
                className="filter-button"
                aria-pressed={!searching && filter === id}
                disabled={!hydrated}
                onClick={() => choose(id)}
              >
                {label}
              </button>
            ))}
          </div>
        )}
      </div>
      {home && <CatalogueSearchBox value={query} onChange={setQuery} disabled={!hydrated} />}
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
            shown < total && (
              <div className="thread-browser__more" data-asks-for-more="">
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setFocusRequest({ list: listKey, block: pages.length });
                    void loadPages(listKey, pages.length + 1);
                  }}
                  disabled={!hydrated}
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
