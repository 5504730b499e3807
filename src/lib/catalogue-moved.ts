import type { Manifest } from '../../contract/manifest.ts';

/**
 * Fired on `document` when the served catalogue is newer than the one the page was pre-rendered
 * from (an approval since the last site build, decision 037): the grid then wakes up and shows the
 * served first page, without waiting for the visitor to reach for it.
 */
export const CATALOGUE_MOVED_EVENT = 'curated-threads:catalogue-moved';

/** The catalogue a page was built from, as the freshness line's data attributes carry it. */
export interface BuiltCatalogue {
  version: string | undefined;
  head: string | undefined;
}

/** Whether the served manifest names another catalogue (version or tail) than the built one. */
export function catalogueMoved(built: BuiltCatalogue, served: Manifest | null): boolean {
  // No version on either side (an unreadable manifest, a build without one): nothing to compare.
  if (!served?.version || !built.version) return false;
  return served.version !== built.version || (served.head ?? '') !== (built.head ?? '');
}
