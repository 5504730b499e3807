import { map } from 'nanostores';
import { THREAD_FETCH_RETRY, THREAD_LIST_CACHE_TTL_MS } from '../../contract/constants.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { threadFileFor, type ThreadFilter } from '../../contract/thread-filter.ts';
import { browserStorage, readCache, writeCache } from '../lib/cache.ts';
import { fetchJson } from '../lib/fetch-json.ts';
import { withRetry } from '../lib/retry.ts';

export type ThreadListState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; cards: readonly ThreadCard[] }
  | { status: 'error' };

/** One list per filter, loaded on demand from the public data files. */
export const $threadLists = map<Record<ThreadFilter, ThreadListState>>({
  all: { status: 'idle' },
  text: { status: 'idle' },
  images: { status: 'idle' },
});

const cacheKey = (filter: ThreadFilter) => `curated-threads:threads-${filter}`;

async function fetchCards(filter: ThreadFilter): Promise<ThreadCard[]> {
  const body = await fetchJson(threadFileFor(filter));
  if (!Array.isArray(body)) throw new Error(`${threadFileFor(filter)} is not a list`);
  return body as ThreadCard[];
}

/**
 * Loads one filter's list: from the browser cache while it is fresh (1 hour), otherwise from the
 * network with retries. `force` skips the cache (the 'Try Again' button).
 */
export async function loadThreads(filter: ThreadFilter, { force = false } = {}): Promise<void> {
  const current = $threadLists.get()[filter];
  if (current.status === 'loading' || (current.status === 'ready' && !force)) return;
  const storage = browserStorage();
  const cached =
    force || !storage ? null : readCache<ThreadCard[]>(storage, cacheKey(filter), THREAD_LIST_CACHE_TTL_MS);
  if (cached) {
    $threadLists.setKey(filter, { status: 'ready', cards: cached });
    return;
  }
  $threadLists.setKey(filter, { status: 'loading' });
  try {
    const cards = await withRetry(() => fetchCards(filter), THREAD_FETCH_RETRY);
    if (storage) writeCache(storage, cacheKey(filter), cards);
    $threadLists.setKey(filter, { status: 'ready', cards });
  } catch {
    $threadLists.setKey(filter, { status: 'error' });
  }
}
