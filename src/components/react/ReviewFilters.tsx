import { useStore } from '@nanostores/react';
import { REVIEW_QUEUE_TEXTS as T, type ReviewSort } from '../../../contract/review-queue.ts';
import { sourceBadge, type ThreadSource } from '../../../contract/review.ts';
import { REVIEW_SIGNAL_TEXTS as S } from '../../../contract/review-signals.ts';
import { $reviewQueue, loadReviewQueue } from '../../stores/review-queue.ts';

const SOURCES: readonly ThreadSource[] = ['user_own', 'public_search', 'public_tag', 'manual_submission'];

/** The keyword and tag choices under a source: one per query, counts summed across sources. */
function queryChoices(
  facets: { source: ThreadSource; query: string; count: number }[],
  source: ThreadSource | null,
) {
  const counts = new Map<string, number>();
  for (const facet of facets) {
    if (!source || facet.source === source)
      counts.set(facet.query, (counts.get(facet.query) ?? 0) + facet.count);
  }
  return [...counts].filter(([, count]) => count > 0);
}

/** Source, keyword or tag, and order of the review queue; each change loads its first page. */
export default function ReviewFilters() {
  const { filter, queries, sources, threads } = useStore($reviewQueue);
  // Threads reports likes only for a member's own posts (threads-api.md section 4): the order by
  // likes is offered only where some listed thread has them, or while it is the chosen order.
  const likesKnown = filter.sort === 'likes' || threads.some((thread) => thread.likes !== null);
  const choices = queryChoices(queries, filter.source);
  // A chosen query stays listed even when it has nothing left, so the select shows the truth.
  if (filter.query && !choices.some(([query]) => query === filter.query)) choices.push([filter.query, 0]);
  const sourceCount = (source: ThreadSource) => sources.find((facet) => facet.source === source)?.count ?? 0;

  return (
    <form className="review-filters" aria-label={T.filtersLabel} onSubmit={(event) => event.preventDefault()}>
      <label>
        {T.sourceLabel}
        <select
          value={filter.source ?? ''}
          onChange={(event) =>
            void loadReviewQueue(
              { source: (event.target.value || null) as ThreadSource | null, query: null },
              { quiet: true },
            )
          }
        >
          <option value="">{T.allSources}</option>
          {SOURCES.map((source) => (
            <option key={source} value={source}>
              {sourceBadge(source)} ({sourceCount(source)})
            </option>
          ))}
        </select>
      </label>
      <label>
        {T.queryLabel}
        <select
          value={filter.query ?? ''}
          onChange={(event) => void loadReviewQueue({ query: event.target.value || null }, { quiet: true })}
        >
          <option value="">{T.allQueries}</option>
          {choices.map(([query, count]) => (
            <option key={query} value={query}>
              {query} ({count})
            </option>
          ))}
        </select>
      </label>
      <label>
        {T.sortLabel}
        <select
          value={filter.sort}
          onChange={(event) =>
            void loadReviewQueue({ sort: event.target.value as ReviewSort }, { quiet: true })
          }
        >
          <option value="newest">{T.newest}</option>
          {likesKnown && <option value="likes">{T.mostLiked}</option>}
          <option value="score">{S.byScore}</option>
        </select>
      </label>
      <label className="review-filters__check">
        <input
          type="checkbox"
          checked={filter.hideRejectedAuthors}
          onChange={(event) =>
            void loadReviewQueue({ hideRejectedAuthors: event.target.checked }, { quiet: true })
          }
        />
        {S.hideRejectedAuthors}
      </label>
      <label className="review-filters__check">
        <input
          type="checkbox"
          checked={filter.groupDuplicates}
          onChange={(event) =>
            void loadReviewQueue({ groupDuplicates: event.target.checked }, { quiet: true })
          }
        />
        {S.groupDuplicates}
      </label>
    </form>
  );
}
