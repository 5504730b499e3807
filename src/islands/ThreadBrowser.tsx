import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { EAGER_IMAGE_COUNT, HOME_PAGE_SIZE } from '../../contract/constants.ts';
import type { Manifest } from '../../contract/manifest.ts';
import { TEXTS } from '../../contract/texts.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { THREAD_FILTERS, type ThreadFilter } from '../../contract/thread-filter.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { $threadLists, loadThreads } from '../stores/threads.ts';
import FreshnessLine from './FreshnessLine.tsx';
import ThreadCardView from './ThreadCardView.tsx';

interface Props {
  /** The first page of "All", rendered into the HTML at build time. */
  initialCards: readonly ThreadCard[];
  /** How many cards "All" holds in the build's catalogue. */
  initialTotal: number;
  builtManifest: Manifest | null;
}

/** The home grid with its All / Text / Images filter; readable before it hydrates. */
export default function ThreadBrowser({ initialCards, initialTotal, builtManifest }: Props) {
  const lists = useStore($threadLists);
  // Without JavaScript the buttons could not work: they stay disabled until the island runs.
  const hydrated = useHydrated();
  const [filter, setFilter] = useState<ThreadFilter>('all');
  const [visible, setVisible] = useState(HOME_PAGE_SIZE);

  const list = lists[filter];
  // Until "All" is fetched, the pre-rendered first page stands in for it.
  const cards = list.status === 'ready' ? list.cards : filter === 'all' ? initialCards : null;
  const total = list.status === 'ready' ? list.cards.length : filter === 'all' ? initialTotal : 0;
  const shown = cards ? cards.slice(0, visible) : [];
  const noun = THREAD_FILTERS.find((f) => f.id === filter)?.noun ?? 'threads';

  // Cached lists are only reused for the catalogue this page was built from.
  const version = builtManifest?.generatedAt ?? '';

  function choose(next: ThreadFilter) {
    setFilter(next);
    setVisible(HOME_PAGE_SIZE);
    void loadThreads(next, { version });
  }

  function showMore() {
    setVisible((count) => count + HOME_PAGE_SIZE);
    void loadThreads(filter, { version });
  }

  let status = '';
  if (list.status === 'loading' && !cards) status = TEXTS.loadingThreads;
  // The error itself is announced by the alert below.
  else if (cards && list.status !== 'error')
    status = total === 0 ? TEXTS.noThreadsForFilter : `Showing ${shown.length} of ${total} ${noun}`;

  return (
    <section className="thread-browser" aria-labelledby="threads-heading">
      <div className="thread-browser__bar">
        <h1 id="threads-heading" className="thread-browser__title">
          Design threads
        </h1>
        <div className="filter-group" role="group" aria-label="Filter threads">
          {THREAD_FILTERS.map(({ id, label }) => (
            <button
              key={id}
              type="button"
              className="filter-button"
              aria-pressed={filter === id}
              disabled={!hydrated}
              onClick={() => choose(id)}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      <FreshnessLine builtManifest={builtManifest} />
      <p className="thread-browser__status" role="status" aria-live="polite">
        {status}
      </p>

      {list.status === 'error' ? (
        <div className="notice notice--error" role="alert">
          <p className="notice__title">{TEXTS.threadsLoadFailed}</p>
          <p>{TEXTS.threadsLoadHint}</p>
          <button
            type="button"
            className="button"
            onClick={() => void loadThreads(filter, { force: true, version })}
          >
            {TEXTS.tryAgain}
          </button>
        </div>
      ) : (
        <>
          {shown.length > 0 && (
            <div className="thread-grid">
              {shown.map((card, index) => (
                <ThreadCardView
                  key={card.id}
                  card={card}
                  eager={index < EAGER_IMAGE_COUNT}
                  priority={index === 0}
                />
              ))}
            </div>
          )}
          {cards && shown.length < total && (
            <div className="thread-browser__more">
              <button
                type="button"
                className="button"
                onClick={showMore}
                disabled={!hydrated || list.status === 'loading'}
              >
                {list.status === 'loading' ? TEXTS.loadingThreads : 'Show more threads'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
