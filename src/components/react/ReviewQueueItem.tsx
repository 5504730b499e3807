import { REVIEW_QUEUE_TEXTS as T } from '../../../contract/review-queue.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { TEXTS } from '../../../contract/texts.ts';
import RejectReasonForm from './RejectReasonForm.tsx';
import ReviewRow from './ReviewRow.tsx';

interface Props {
  thread: ReviewThread;
  selected: boolean;
  /** A decision on it is in flight: its buttons are disabled. */
  busy: boolean;
  /** The reason choice is open on it. */
  rejecting: boolean;
  /** Registers the item, so the keys can focus it (null when it leaves). */
  itemRef(node: HTMLLIElement | null): void;
  onToggle(): void;
  onApprove(): void;
  onReject(): void;
  onConfirmReject(reason: string | undefined): void;
  onCancelReject(): void;
}

/** One row of the review queue: its checkbox, the row, and Approve / Reject or the reason choice. */
export default function ReviewQueueItem({ thread, selected, busy, rejecting, itemRef, ...on }: Props) {
  return (
    <li
      ref={itemRef}
      // Focused by the keys (j/k) and after a decision; Tab goes to its controls.
      tabIndex={-1}
      data-thread-id={thread.id}
      className={`review-queue__item${selected ? ' review-queue__item--selected' : ''}`}
    >
      <label className="review-queue__select">
        <input
          type="checkbox"
          checked={selected}
          onChange={on.onToggle}
          aria-label={`${T.select} the thread by ${thread.handle}`}
        />
        <span className="visually-hidden">{T.select}</span>
      </label>
      <ReviewRow
        thread={thread}
        wide={rejecting}
        actions={
          rejecting ? (
            <RejectReasonForm
              confirmLabel={T.confirmReject}
              onConfirm={on.onConfirmReject}
              onCancel={on.onCancelReject}
            />
          ) : (
            <>
              <button type="button" className="button" disabled={busy} onClick={on.onApprove}>
                {TEXTS.approve}
              </button>
              <button type="button" className="button button--quiet" disabled={busy} onClick={on.onReject}>
                {TEXTS.reject}
              </button>
            </>
          )
        }
      />
    </li>
  );
}
