import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { bulkDoneMessage, REVIEW_QUEUE_TEXTS as T } from '../../../contract/review-queue.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { useQueuePlace } from '../../lib/use-queue-place.ts';
import { useReviewKeys } from '../../lib/use-review-keys.ts';
import { loadGeneratedPosts } from '../../stores/dashboard.ts';
import {
  $reviewQueue,
  decideReview,
  decideReviews,
  loadMoreReviews,
  loadReviewQueue,
} from '../../stores/review-queue.ts';
import CurationRuns from './CurationRuns.tsx';
import LiveAlert, { useAnnouncement } from './LiveAlert.tsx';
import LoadFailed from './LoadFailed.tsx';
import ReviewBulkBar from './ReviewBulkBar.tsx';
import ReviewFilters from './ReviewFilters.tsx';
import ReviewQueueItem from './ReviewQueueItem.tsx';
import ReviewQueueMore from './ReviewQueueMore.tsx';
import ReviewShortcuts from './ReviewShortcuts.tsx';
import ReviewUndo, { useUndo } from './ReviewUndo.tsx';
import '../../styles/review.css';
import '../../styles/review-rows.css';

type Decision = 'approve' | 'reject';

const MESSAGES = {
  approve: { done: TEXTS.threadApproved, failed: TEXTS.threadApproveFailed },
  reject: { done: TEXTS.threadRejected, failed: TEXTS.threadRejectFailed },
} as const;

/** An approved manual submission queued a generated post: the Manual Submissions tab shows it. */
const submissionApproved = () => void loadGeneratedPosts({ quiet: true });

// Fewer cards than this left (in all, or after the focused one): the next page is fetched, so the
// keys never run dry.
const REFILL_BELOW = 5;

/** The Pending Review tab: the queue a page at a time, filters, keys, bulk decisions and the curation control. */
export default function PendingReview() {
  const queue = useStore($reviewQueue);
  const { threads } = queue;
  const { announcement, announce } = useAnnouncement();
  // Threads with a decision in flight: their buttons are disabled, and a second decision is ignored.
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const inFlight = useRef(new Set<string>());
  const [bulkBusy, setBulkBusy] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const current = useRef<string | null>(null);
  const items = useRef(new Map<string, HTMLLIElement>());

  const focusCard = useCallback(
    (id: string | undefined) => {
      const item = id ? items.current.get(id) : undefined;
      if (!item) return;
      // Near the end of what is loaded: the next page comes before the keys reach the last card.
      const index = threads.findIndex((thread) => thread.id === id);
      if (threads.length - index <= REFILL_BELOW && queue.nextCursor) void loadMoreReviews();
      current.current = id ?? null;
      // The card comes into view only as far as needed: the page never jumps.
      item.focus({ preventScroll: true });
      item.scrollIntoView({ block: 'nearest' });
    },
    [threads, queue.nextCursor],
  );

  useQueuePlace(threads, current, focusCard);
  const {
    offer,
    busy: undoing,
    bar,
    offerUndo,
    undo,
  } = useUndo({
    threads,
    announce,
    focusCard,
    refocus: () => focusCard(current.current ?? threads[0]?.id),
  });

  useEffect(() => {
    if (
      queue.status === 'ready' &&
      threads.length < REFILL_BELOW &&
      queue.nextCursor &&
      queue.more === 'idle'
    ) {
      void loadMoreReviews();
    }
  }, [queue.status, threads.length, queue.nextCursor, queue.more]);

  // Only threads on the list count as selected: after a filter change the bar never counts (or
  // decides) threads that are not shown; switching back brings their selection back.
  const shownSelected = useMemo(
    () => new Set(threads.filter((thread) => selected.has(thread.id)).map((thread) => thread.id)),
    [threads, selected],
  );

  const setBusyFor = (id: string, on: boolean) => {
    if (on) inFlight.current.add(id);
    else inFlight.current.delete(id);
    setBusy(new Set(inFlight.current));
  };

  const decide = async (thread: ReviewThread, decision: Decision, reason?: string) => {
    if (inFlight.current.has(thread.id)) return;
    setBusyFor(thread.id, true);
    const outcome = await decideReview(thread.id, decision, reason);
    setBusyFor(thread.id, false);
    if (outcome === 'decided') {
      announce(MESSAGES[decision].done);
      offerUndo([thread.id], decision, thread.handle);
      if (decision === 'approve' && thread.source === 'manual_submission') submissionApproved();
    } else if (outcome === 'gone') {
      announce(T.alreadyDecided);
    } else {
      announce(MESSAGES[decision].failed, 'error');
    }
    if (outcome !== 'failed') setSelected((ids) => new Set([...ids].filter((id) => id !== thread.id)));
  };

  const decideSelected = async (decision: Decision, reason?: string) => {
    const ids = threads.filter((thread) => selected.has(thread.id)).map((thread) => thread.id);
    if (ids.length === 0 || bulkBusy) return;
    const submissions = threads.some((t) => selected.has(t.id) && t.source === 'manual_submission');
    setBulkBusy(true);
    const result = await decideReviews(ids, decision, reason);
    setBulkBusy(false);
    if (typeof result === 'string') {
      announce(`${MESSAGES[decision].failed} ${result}`, 'error');
      return;
    }
    announce(bulkDoneMessage(decision, result));
    offerUndo(result.decided, decision);
    // The place stays: the first card left after the first decided one takes the focus before the
    // bulk bar (which holds it now) goes away.
    const gone = new Set([...result.decided, ...result.already_decided.map((item) => item.thread_id)]);
    const first = threads.findIndex((thread) => gone.has(thread.id));
    const next =
      threads.slice(Math.max(first, 0)).find((thread) => !gone.has(thread.id)) ??
      threads.find((thread) => !gone.has(thread.id));
    if (next) focusCard(next.id);
    setSelected(new Set());
    if (decision === 'approve' && submissions && result.decided.length > 0) submissionApproved();
  };

  const focusedIndex = () => {
    const active = document.activeElement;
    const inside = threads.findIndex((thread) => items.current.get(thread.id)?.contains(active));
    return inside >= 0 ? inside : threads.findIndex((thread) => thread.id === current.current);
  };
  const focusedThread = () => {
    const index = focusedIndex();
    return index >= 0 ? threads[index] : undefined;
  };

  const ready = queue.status === 'ready' && !queue.denied;
  useReviewKeys(ready, {
    next: () => {
      focusCard(threads[Math.min(focusedIndex() + 1, threads.length - 1)]?.id);
    },
    previous: () => focusCard(threads[Math.max(focusedIndex() - 1, 0)]?.id),
    approve: () => {
      const thread = focusedThread();
      if (thread) void decide(thread, 'approve');
    },
    reject: () => {
      const thread = focusedThread();
      if (thread && !inFlight.current.has(thread.id)) setRejecting(thread.id);
    },
    toggleSelection: () => {
      const thread = focusedThread();
      if (thread) toggle(thread.id);
    },
    toggleHelp: () => setHelp((open) => !open),
    undo: () => void undo(),
    escape: () => {
      if (help) setHelp(false);
    },
  });

  const toggle = (id: string) =>
    setSelected((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const closeReason = (thread: ReviewThread) => {
    setRejecting(null);
    focusCard(thread.id);
  };

  if (queue.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  // Non-admins get 401/403 from the queue: they see an empty list and no curation control (spec).
  if (queue.denied) return <p>{TEXTS.noPendingReview}</p>;

  let list;
  if (queue.status === 'error') {
    list = (
      <LoadFailed
        className="dashboard-error"
        title="Failed to load the threads pending review."
        message={queue.error ?? ''}
        onRetry={() => void loadReviewQueue()}
      />
    );
  } else if (threads.length === 0 && !queue.nextCursor) {
    list = <p>{TEXTS.noPendingReview}</p>;
  } else {
    list = (
      <ul className="review-queue__list dashboard-list">
        {threads.map((thread) => (
          <ReviewQueueItem
            key={thread.id}
            thread={thread}
            selected={selected.has(thread.id)}
            busy={busy.has(thread.id)}
            rejecting={rejecting === thread.id}
            itemRef={(node) => {
              if (node) items.current.set(thread.id, node);
              else items.current.delete(thread.id);
            }}
            onToggle={() => toggle(thread.id)}
            onApprove={() => void decide(thread, 'approve')}
            onReject={() => setRejecting(thread.id)}
            onConfirmReject={(reason) => {
              setRejecting(null);
              focusCard(thread.id);
              void decide(thread, 'reject', reason);
            }}
            onCancelReject={() => closeReason(thread)}
          />
        ))}
      </ul>
    );
  }

  return (
    <>
      <CurationRuns />
      <h2 className="visually-hidden">Threads pending review</h2>
      <div className="review-toolbar">
        <ReviewFilters />
        {threads.length > 0 && (
          <button
            type="button"
            className="button button--quiet"
            // Every card loaded so far (Load more adds the next ones); the bar says when that is too many.
            onClick={() => setSelected(new Set(threads.map((thread) => thread.id)))}
          >
            {T.selectAll}
          </button>
        )}
        <button
          type="button"
          className="button button--quiet"
          aria-expanded={help}
          aria-keyshortcuts="?"
          onClick={() => setHelp((open) => !open)}
        >
          {T.shortcuts} <kbd>?</kbd>
        </button>
      </div>
      {help && <ReviewShortcuts onClose={() => setHelp(false)} />}
      {shownSelected.size > 0 && (
        <ReviewBulkBar
          count={shownSelected.size}
          busy={bulkBusy}
          onDecide={(decision, reason) => void decideSelected(decision, reason)}
          onClear={() => setSelected(new Set())}
        />
      )}
      <LiveAlert announcement={announcement} />
      <ReviewUndo offer={offer} busy={undoing} bar={bar} onUndo={() => void undo()} />
      {list}
      <ReviewQueueMore />
    </>
  );
}
