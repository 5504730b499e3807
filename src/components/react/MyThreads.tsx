import { useStore } from '@nanostores/react';
import { ownThreadsSummary } from '../../../contract/review.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { $ownThreads, loadOwnThreads } from '../../stores/dashboard.ts';
import ReviewThreadCard from './ReviewThreadCard.tsx';
import LoadFailed from './LoadFailed.tsx';

/** The My Threads tab: the member's own threads as collected by curation, without actions. */
export default function MyThreads() {
  const state = useStore($ownThreads);
  if (state.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (state.status === 'error') {
    return (
      <LoadFailed
        className="dashboard-error"
        title="Failed to load your threads."
        message={state.message}
        onRetry={() => void loadOwnThreads()}
      />
    );
  }
  if (state.data.length === 0) return <p>{TEXTS.noOwnThreads}</p>;
  const statuses = state.data.flatMap((thread) => (thread.status ? [thread.status] : []));
  return (
    <>
      {/* The profile counts only those in the catalogue: this line says both numbers. */}
      <p className="field-help">
        {ownThreadsSummary(statuses)}. <a href="/profile">{TEXTS.ownThreadsProfileLink}</a>.
      </p>
      <ul className="thread-grid dashboard-list">
        {state.data.map((thread) => (
          <li key={thread.id}>
            <ReviewThreadCard thread={thread} />
          </li>
        ))}
      </ul>
    </>
  );
}
