import { useRef, useState } from 'react';
import type { ReviewThread } from '../../contract/review.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import CurationRuns from './CurationRuns.tsx';
import type { ListState } from './Dashboard.tsx';
import ReviewThreadCard from './ReviewThreadCard.tsx';
import LoadFailed from './LoadFailed.tsx';

type Decision = 'approve' | 'reject';

interface Props {
  state: ListState<ReviewThread>;
  /** Drops a thread that is no longer pending from the list; `approved` when this decision approved it. */
  onDecided(threadId: string, approved: boolean): void;
  onRetry(): void;
  /** A curation run finished: the queue may hold new threads. */
  onCurated(): void;
}

const MESSAGES = {
  approve: { done: TEXTS.threadApproved, failed: TEXTS.threadApproveFailed, log: 'Failed to approve thread' },
  reject: { done: TEXTS.threadRejected, failed: TEXTS.threadRejectFailed, log: 'Failed to reject thread' },
} as const;

/** The Pending Review tab: the queue with Approve and Reject, and, for admins, the curation-run control. */
export default function PendingReview({ state, onDecided, onRetry, onCurated }: Props) {
  // Threads with a decision in flight: their buttons are disabled, and a second click is ignored.
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const inFlight = useRef(new Set<string>());

  const decide = async (threadId: string, decision: Decision) => {
    if (inFlight.current.has(threadId)) return;
    inFlight.current.add(threadId);
    setBusy(new Set(inFlight.current));
    const messages = MESSAGES[decision];
    try {
      await api(`/api/threads/${decision}`, { method: 'POST', body: { thread_id: threadId } });
      window.alert(messages.done);
      onDecided(threadId, decision === 'approve');
    } catch (error) {
      console.error(messages.log, error);
      window.alert(messages.failed);
      // Already decided (409) or gone (404): it is no longer pending, so it leaves the list too.
      if (error instanceof ApiRequestError && (error.status === 409 || error.status === 404)) {
        onDecided(threadId, false);
      }
    } finally {
      inFlight.current.delete(threadId);
      setBusy(new Set(inFlight.current));
    }
  };

  if (state.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  // Non-admins get 401/403 from the queue: they see an empty list and no curation control (spec).
  const admin = !(state.status === 'ready' && state.denied);

  let queue;
  if (state.status === 'error') {
    queue = (
      <LoadFailed
        className="dashboard-error"
        title="Failed to load the threads pending review."
        message={state.message}
        onRetry={onRetry}
      />
    );
  } else if (state.items.length === 0) {
    queue = <p>{TEXTS.noPendingReview}</p>;
  } else {
    queue = (
      <ul className="thread-grid dashboard-list">
        {state.items.map((thread) => (
          <li key={thread.id}>
            <ReviewThreadCard thread={thread}>
              {(['approve', 'reject'] as const).map((decision) => (
                <button
                  key={decision}
                  type="button"
                  className={decision === 'approve' ? 'button' : 'button button--quiet'}
                  disabled={busy.has(thread.id)}
                  onClick={() => void decide(thread.id, decision)}
                >
                  {decision === 'approve' ? TEXTS.approve : TEXTS.reject}
                </button>
              ))}
            </ReviewThreadCard>
          </li>
        ))}
      </ul>
    );
  }

  if (!admin) return queue;
  return (
    <>
      <CurationRuns onFinished={onCurated} />
      <h2 className="visually-hidden">Threads pending review</h2>
      {queue}
    </>
  );
}
