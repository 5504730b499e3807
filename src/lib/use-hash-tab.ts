import { useCallback, useEffect, useState } from 'react';

/** The tab named by the page's URL hash (`#pending-review`), or null when the hash names none. */
function tabInHash<T extends string>(hashes: Readonly<Record<T, string>>): T | null {
  const hash = decodeURIComponent(window.location.hash.slice(1));
  const ids = Object.keys(hashes) as T[];
  return ids.find((id) => hashes[id] === hash) ?? null;
}

/**
 * The selected tab, kept in the URL hash: restored on load and when the hash changes (a link, Back),
 * written on every choice without adding history entries. A hash naming a tab the person cannot
 * use falls back to `fallback`.
 */
export function useHashTab<T extends string>(
  hashes: Readonly<Record<T, string>>,
  available: readonly T[],
  fallback: T,
): [T, (id: T) => void] {
  const [requested, setRequested] = useState<T | null>(null);

  useEffect(() => {
    const read = () => setRequested(tabInHash(hashes));
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, [hashes]);

  const select = useCallback(
    (id: T) => {
      setRequested(id);
      const { pathname, search } = window.location;
      window.history.replaceState(window.history.state, '', `${pathname}${search}#${hashes[id]}`);
    },
    [hashes],
  );

  const selected = requested !== null && available.includes(requested) ? requested : fallback;
  return [selected, select];
}
