import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Keeps the admin's place in the review queue: remembers the row that last held the focus (a key, a
 * click or Tab) in `current`, and when that row leaves the list (decided) while the focus went with
 * it, gives the focus to the next row (the previous one when it was the last).
 */
export function useQueuePlace(
  threads: readonly { id: string }[],
  current: RefObject<string | null>,
  focusCard: (id: string | undefined) => void,
): void {
  const shown = useRef(threads);

  useLayoutEffect(() => {
    const before = shown.current;
    shown.current = threads;
    const left = current.current;
    if (!left || threads.some((thread) => thread.id === left)) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const remaining = new Set(threads.map((thread) => thread.id));
    const at = before.findIndex((thread) => thread.id === left);
    const next =
      before.slice(at + 1).find((thread) => remaining.has(thread.id)) ??
      before
        .slice(0, Math.max(at, 0))
        .reverse()
        .find((thread) => remaining.has(thread.id)) ??
      threads[0];
    if (next) focusCard(next.id);
  }, [threads, focusCard, current]);

  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const card =
        event.target instanceof Element ? event.target.closest<HTMLElement>('[data-thread-id]') : null;
      if (card?.dataset.threadId) current.current = card.dataset.threadId;
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [current]);
}
