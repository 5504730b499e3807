import type { ThreadCard } from './thread-card.ts';

/** The home grid's filter buttons, in display order. */
export const THREAD_FILTERS = [
  { id: 'all', label: 'All', noun: 'threads' },
  { id: 'text', label: 'Text', noun: 'text threads' },
  { id: 'images', label: 'Images', noun: 'image threads' },
] as const;

export type ThreadFilter = (typeof THREAD_FILTERS)[number]['id'];

/** Public data file that holds the cards of one filter. */
export function threadFileFor(filter: ThreadFilter): string {
  return `/data/threads-${filter}.json`;
}

/** Whether a card belongs under a filter: the one rule the exporter and the home grid both use. */
export function matchesFilter(card: Pick<ThreadCard, 'type' | 'image'>, filter: ThreadFilter): boolean {
  if (filter === 'all') return true;
  const hasImage = card.type === 'image' && card.image !== null;
  return filter === 'images' ? hasImage : !hasImage;
}

/**
 * The pre-rendered page of a filter's first cards: what the filter buttons submit to without
 * JavaScript (a GET form's `formaction`). All is the home page.
 */
export function filterPagePath(filter: ThreadFilter): string {
  return filter === 'all' ? '/' : `/filter/${filter}/`;
}

/** The filter whose pre-rendered page `pathname` is (`/filter/text/`), or 'all' for any other address. */
export function filterOfPath(pathname: string): ThreadFilter {
  const found = THREAD_FILTERS.find(
    ({ id }) => id !== 'all' && pathname.replace(/\/?$/, '/') === filterPagePath(id),
  );
  return found?.id ?? 'all';
}
