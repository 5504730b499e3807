import { useStore } from '@nanostores/react';
import { CATALOGUE_PAGE_SIZE } from '../../contract/catalogue-pages.ts';
import { TEXTS } from '../../contract/texts.ts';
import { $search, searchCatalogue, showMoreResults } from '../stores/search.ts';
import ThreadGrid, { inPages, ThreadGridSkeleton } from './ThreadGrid.tsx';

/** The matches of the catalogue search, as cards, a page at a time. */
export default function SearchResults() {
  const search = useStore($search);
  const { query, status, positions, cards } = search;
  const firstLoad = status === 'loading' && cards.length === 0;
  let line = '';
  if (firstLoad) line = `Searching for “${query}”...`;
  else if (status !== 'error')
    line =
      positions.length === 0
        ? `No threads match “${query}”.`
        : `${positions.length} ${positions.length === 1 ? 'thread matches' : 'threads match'} “${query}”`;

  return (
    <>
      <p className="thread-browser__status" role="status" aria-live="polite">
        {line}
      </p>
      {firstLoad && <ThreadGridSkeleton />}
      <ThreadGrid pages={inPages(cards, CATALOGUE_PAGE_SIZE)} />
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
          <div className="thread-browser__more">
            <button
              type="button"
              className="button"
              onClick={() => void showMoreResults()}
              disabled={status === 'loading'}
            >
              {status === 'loading' ? 'Loading more matches...' : 'Show more matches'}
            </button>
          </div>
        )
      )}
    </>
  );
}
