import { useState } from 'react';
import { BULK_DECISION_MAX, REVIEW_QUEUE_TEXTS as T, selectedCount } from '../../../contract/review-queue.ts';
import RejectReasonForm from './RejectReasonForm.tsx';

interface Props {
  count: number;
  busy: boolean;
  onDecide(action: 'approve' | 'reject', reason?: string): void;
  onClear(): void;
}

/** What to do with the selected threads: approve or reject them all in one call, or unselect them. */
export default function ReviewBulkBar({ count, busy, onDecide, onClear }: Props) {
  const [rejecting, setRejecting] = useState(false);
  const tooMany = count > BULK_DECISION_MAX;
  return (
    <section className="review-bulk" aria-label="Selected threads">
      <p className="review-bulk__count" aria-live="polite">
        {selectedCount(count)}
        {tooMany && ` (at most ${BULK_DECISION_MAX} at once)`}
      </p>
      {rejecting ? (
        <RejectReasonForm
          confirmLabel={`Reject ${count} ${count === 1 ? 'thread' : 'threads'}`}
          onConfirm={(reason) => {
            setRejecting(false);
            onDecide('reject', reason);
          }}
          onCancel={() => setRejecting(false)}
        />
      ) : (
        <div className="form-actions">
          <button
            type="button"
            className="button"
            disabled={busy || tooMany}
            onClick={() => onDecide('approve')}
          >
            {T.approveSelected}
          </button>
          <button
            type="button"
            className="button button--quiet"
            disabled={busy || tooMany}
            onClick={() => setRejecting(true)}
          >
            {T.rejectSelected}
          </button>
          <button type="button" className="button button--quiet" disabled={busy} onClick={onClear}>
            {T.clearSelection}
          </button>
        </div>
      )}
    </section>
  );
}
