import { useEffect, useRef } from 'react';

export interface ReviewKeyHandlers {
  next(): void;
  previous(): void;
  approve(): void;
  reject(): void;
  toggleSelection(): void;
  toggleHelp(): void;
  /** Takes back the last decision while its Undo shows (decision 047). */
  undo(): void;
  escape(): void;
}

const TEXT_INPUTS = new Set(['text', 'search', 'url', 'email', 'number', 'password', 'tel']);

/** True when a key press belongs to what the person is typing or choosing, not to the queue. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('form, textarea, select')) return true;
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type);
}

/**
 * The review queue's keys (decision 013): j/k move, a approves, r rejects, x selects, u undoes the
 * last decision, ? shows the list. Ignored with a modifier key held and while typing in a field or a form.
 */
export function useReviewKeys(enabled: boolean, handlers: ReviewKeyHandlers): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape') {
        current.current.escape();
        return;
      }
      if (typing(event.target)) return;
      const action = {
        j: current.current.next,
        k: current.current.previous,
        a: current.current.approve,
        r: current.current.reject,
        x: current.current.toggleSelection,
        u: current.current.undo,
        '?': current.current.toggleHelp,
      }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
