import type { ModerationLogPage } from '../../../contract/moderation-log.ts';
import { ReadCache } from '../../http/read-cache.ts';

/**
 * Pages of `GET /api/moderation` by cursor ('' for the first). The log is public and may be read a
 * lot; every decision clears it, and a page read while a decision committed is not stored.
 */
export function createModerationLogCache(now?: () => number): ReadCache<ModerationLogPage> {
  // Bounded, so a walk through made-up (valid) cursors cannot grow it without limit.
  return new ReadCache<ModerationLogPage>({ maxEntries: 200, ...(now ? { now } : {}) });
}
