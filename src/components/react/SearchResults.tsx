import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { CATALOGUE_PAGE_SIZE } from '../../../contract/catalogue-pages.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { $search, searchCatalogue, showMoreResults, type SearchState } from '../../stores/search.ts';
import ThreadGrid, { inPages, ThreadGridSkeleton } from './ThreadGrid.tsx';

/** The status line of a search: what is being searched, or how many threads match. */
export function searchStatusLine({ query, status, positions }: SearchState): string {
  if (status === 'searching') return `Searching for “${query}”...`;
  // The error itself is announced by the alert.
  if (status === 'error' || status === 'idle') return '';
  if (positions.length === 0) return `No threads match “${query}”.`;
  return `${positions.length} ${positions.length === 1 ? 'thread matches' : 'threads match'} “${query}”`;
}

/** The matches of the catalogue search, as cards, a page at a time (the status line is the browser's). */
export default function SearchResults() {
  const search = useStore($search);
  const { query, status, positions, cards } = search;
  const firstLoad = status === 'searching' && cards.length === 0;
  const pages = inPages(cards, CATALOGUE_PAGE_SIZE);
  // As in the grid: the first card 'Show more matches' brought takes the focus, for this query only.
  const [focusRequest, setFocusRequest] = useState<{ query: string; block: number } | null>(null);
  const focusBlock = focusRequest?.query === query ? focusRequest.block : null;

  return (
    <>
      {firstLoad && <ThreadGridSkeleton />}
      <ThreadGrid pages={pages} focusBlock={focusBlock} onFocused={() => setFocusRequest(null)} />
      {status === 'error' ? (
        <div className="notice notice--error" role="alert">
          <p className="notice__title">Search is not available right now.</p>
          <p>The search index could not be loaded. Check your connection and try again.</p>
          <button type="button" className="button" onClick={() => void searchCatalogue(query)}>
            {TEXTS.tryAgain}
          </button>
        </div>
      ) : (
        cards.length < positions.length && (
          <div className="thread-browser__more" data-asks-for-more="">
            <button
              type="button"
              className="button"
              onClick={() => {
                setFocusRequest({ query, block: pages.length });
                void showMoreResults();
              }}
              aria-disabled={status === 'loading' || status === 'searching'}
            >
              {status === 'loading' ? 'Loading more matches...' : 'Show more matches'}
            </button>
          </div>
        )
      )}
    </>
  );
}
