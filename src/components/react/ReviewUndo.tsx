import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  decisionSummary,
  UNDO_SHOWN_MS,
  UNDO_TEXTS as T,
  undoneMessage,
} from '../../../contract/review-undo.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { undoDecisions } from '../../stores/review-queue.ts';
import type { Announcement } from './LiveAlert.tsx';

/** The last decision, while it may still be taken back. */
export interface UndoOffer {
  ids: string[];
  summary: string;
  /** Changes with every offer, so a new decision restarts the time. */
  key: number;
}

interface UndoDeps {
  threads: readonly ReviewThread[];
  announce(text: string, tone?: Announcement['tone']): void;
  focusCard(id: string | undefined): void;
  /** Gives the focus back to the queue when the bar it was in goes away. */
  refocus(): void;
}

/**
 * Undo after a decision (decision 047): `offer` after each approval or rejection (one or a batch)
 * shows the bar for a few seconds; `undo` takes the decision back and focuses the restored row.
 */
export function useUndo({ threads, announce, focusCard, refocus }: UndoDeps) {
  const [offer, setOffer] = useState<UndoOffer | null>(null);
  // Read by `undo` at once: a `u` pressed right after `a` may come before the bar's render.
  const latest = useRef<UndoOffer | null>(null);
  const [busy, setBusy] = useState(false);
  const bar = useRef<HTMLDivElement>(null);
  const restored = useRef<string | null>(null);
  const inFlight = useRef(false);

  // The latest refocus, read when the time runs out: a new one every render must not restart it.
  const back = useRef(refocus);
  useEffect(() => {
    back.current = refocus;
  });

  const close = useCallback(() => {
    // The bar is leaving with the focus in it: the focus goes back to the queue, never to <body>.
    const hadFocus = bar.current?.contains(document.activeElement) ?? false;
    latest.current = null;
    setOffer(null);
    if (hadFocus) back.current();
  }, []);

  useEffect(() => {
    if (!offer || busy) return;
    const timer = setTimeout(close, UNDO_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [offer, busy, close]);

  // The restored row arrives with the reloaded page: it takes the focus, so the admin decides again.
  useEffect(() => {
    const id = restored.current;
    if (id && threads.some((thread) => thread.id === id)) {
      restored.current = null;
      focusCard(id);
    }
  }, [threads, focusCard]);

  const offerUndo = useCallback((ids: string[], action: 'approve' | 'reject', handle?: string) => {
    if (ids.length === 0) return;
    const next = {
      ids,
      summary: decisionSummary(action, ids.length, handle),
      key: (latest.current?.key ?? 0) + 1,
    };
    latest.current = next;
    setOffer(next);
  }, []);

  const undo = async () => {
    const taken = latest.current;
    if (!taken || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    restored.current = taken.ids[0] ?? null;
    const outcome = await undoDecisions(taken.ids);
    inFlight.current = false;
    setBusy(false);
    if (outcome === true) {
      latest.current = null;
      setOffer(null);
      announce(undoneMessage(taken.ids.length));
    } else {
      restored.current = null;
      close();
      // The disabled button let the focus fall to <body>: it goes back to the queue.
      if (document.activeElement === document.body) back.current();
      announce(`${T.undoFailed} ${outcome}`, 'error');
    }
  };

  return { offer, busy, bar, offerUndo, undo, close };
}

interface Props {
  offer: UndoOffer | null;
  busy: boolean;
  bar: RefObject<HTMLDivElement | null>;
  onUndo(): void;
}

/**
 * The Undo bar: a polite status region (always in the page, so each offer is read) at the bottom
 * right, out of the way of the decisions' alert; its button is reached by Tab or the key `u`.
 */
export default function ReviewUndo({ offer, busy, bar, onUndo }: Props) {
  return (
    <div ref={bar} role="status" className="review-undo">
      {offer && (
        <div key={offer.key} className="review-undo__bar">
          <p className="review-undo__text">{offer.summary}</p>
          <button
            type="button"
            className="button button--quiet"
            aria-keyshortcuts="u"
            disabled={busy}
            onClick={onUndo}
          >
            {busy ? T.undoing : T.undo}
          </button>
        </div>
      )}
    </div>
  );
}
