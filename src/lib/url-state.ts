/** The value of one query parameter of the current address, or null. */
export function readQueryParam(name: string): string | null {
  return new URLSearchParams(window.location.search).get(name);
}

/**
 * Puts the given query parameters into the address (null removes one), keeping the rest and the
 * hash (with `pathname`, the address of that path instead, when it is another). `push` makes a new history entry (Back returns to the previous state); otherwise the current
 * entry is replaced (typing a search should not fill the history).
 */
export function writeQueryParams(
  values: Record<string, string | null>,
  { push, pathname }: { push: boolean; pathname?: string },
): void {
  const url = new URL(window.location.href);
  // Another page's address (a filter page's grid moving to the home page's): its query starts empty.
  if (pathname !== undefined && pathname !== url.pathname) [url.pathname, url.search] = [pathname, ''];
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === '') url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  if (url.href === window.location.href) return;
  if (push) window.history.pushState(null, '', url);
  else window.history.replaceState(null, '', url);
}
