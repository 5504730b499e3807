import { useSyncExternalStore } from 'react';

const TICK_MS = 60_000;
let now = 0;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
      now = 0;
    }
  };
}

// One clock for every card: read once, then moved on a minute at a time while anything shows it.
function snapshot(): number {
  if (now === 0) now = Date.now();
  return now;
}

/** The visitor's clock to the minute, or null in the pre-rendered HTML and during hydration. */
export function useNow(): number | null {
  return useSyncExternalStore(subscribe, snapshot, () => null);
}
