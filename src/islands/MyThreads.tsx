import type { ReviewThread } from '../../contract/review.ts';
import { TEXTS } from '../../contract/texts.ts';
import type { ListState } from './Dashboard.tsx';
import ReviewThreadCard from './ReviewThreadCard.tsx';

interface Props {
  state: ListState<ReviewThread>;
  onRetry(): void;
}

/** The My Threads tab: the member's own threads as collected by curation, without actions. */
export default function MyThreads({ state, onRetry }: Props) {
  if (state.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (state.status === 'error') {
    return (
      <div className="notice notice--error dashboard-error" role="alert">
        <p className="notice__title">Failed to load your threads.</p>
        <p>{state.message}</p>
        <button type="button" className="button" onClick={onRetry}>
          {TEXTS.tryAgain}
        </button>
      </div>
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
