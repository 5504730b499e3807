import { useEffect, useRef } from 'react';
import { REVIEW_KEYS, REVIEW_QUEUE_TEXTS as T } from '../../../contract/review-queue.ts';

/**
 * The list of the review queue's keys ('?' opens and closes it); focus goes to its Close button and,
 * when it closes (Close, '?' or Escape), back to where it was before, unless it has moved on since.
 */
export default function ReviewShortcuts({ onClose }: { onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    close.current?.focus();
    const section = panel.current;
    return () => {
      const now = document.activeElement;
      const lost = !now || now === document.body || Boolean(section?.contains(now));
      if (lost && before?.isConnected) before.focus();
    };
  }, []);
  return (
    <section ref={panel} className="panel review-shortcuts" aria-labelledby="review-shortcuts-title">
      <h3 id="review-shortcuts-title">{T.shortcuts}</h3>
      <dl>
        {REVIEW_KEYS.map(({ keys, does }) => (
          <div key={keys} className="review-shortcuts__row">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
      <p className="field-help">Keys do nothing while you type in a field.</p>
      <button ref={close} type="button" className="button button--quiet" onClick={onClose}>
        {T.closeShortcuts}
      </button>
    </section>
  );
}
