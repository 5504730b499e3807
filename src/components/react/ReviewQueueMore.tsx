import { useStore } from '@nanostores/react';
import { REVIEW_QUEUE_TEXTS as T, shownOf } from '../../../contract/review-queue.ts';
import { $reviewQueue, loadMoreReviews } from '../../stores/review-queue.ts';

/** Below the review queue: how many of the pending threads are shown, and 'Load more'. */
export default function ReviewQueueMore() {
  const queue = useStore($reviewQueue);
  const { threads } = queue;
  if (queue.status !== 'ready' || (threads.length === 0 && !queue.nextCursor)) return null;
  return (
    <div className="review-queue__more">
      {/* Not a live region: it changes with every decision, which the alert already announces. */}
      <p className="review-queue__count">{shownOf(threads.length, queue.total)}</p>
      {queue.more === 'error' && <p className="field-error">{T.loadMoreFailed}</p>}
      {queue.nextCursor && (
        <button
          type="button"
          className="button button--quiet"
          disabled={queue.more === 'loading'}
          onClick={() => void loadMoreReviews()}
        >
          {queue.more === 'loading' ? T.loadingMore : T.loadMore}
        </button>
      )}
    </div>
  );
}
