import type { ReviewThread } from '../../../contract/review.ts';
import { TEXTS } from '../../../contract/texts.ts';
import type { ListState } from '../../islands/Dashboard.tsx';
import ReviewThreadCard from './ReviewThreadCard.tsx';
import LoadFailed from './LoadFailed.tsx';

interface Props {
  state: ListState<ReviewThread>;
  onRetry(): void;
}

/** The My Threads tab: the member's own threads as collected by curation, without actions. */
export default function MyThreads({ state, onRetry }: Props) {
  if (state.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (state.status === 'error') {
    return (
      <LoadFailed
        className="dashboard-error"
        title="Failed to load your threads."
        message={state.message}
        onRetry={onRetry}
      />
    );
  }
  if (state.items.length === 0) return <p>{TEXTS.noOwnThreads}</p>;
  return (
    <ul className="thread-grid dashboard-list">
      {state.items.map((thread) => (
        <li key={thread.id}>
          <ReviewThreadCard thread={thread} />
        </li>
      ))}
    </ul>
  );
}
