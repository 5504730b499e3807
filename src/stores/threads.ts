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

/** A cheap shape check (no zod in the browser bundle): a list of objects with the card's text fields. */
function isCardList(body: unknown): body is ThreadCard[] {
  return (
    Array.isArray(body) &&
    body.every(
      (card: Partial<Record<keyof ThreadCard, unknown>> | null) =>
        typeof card === 'object' &&
        card !== null &&
        ['id', 'author', 'handle', 'avatar', 'content'].every(
          (key) => typeof card[key as keyof ThreadCard] === 'string',
        ),
    )
  );
}

async function fetchCards(filter: ThreadFilter): Promise<ThreadCard[]> {
  const body = await fetchJson(threadFileFor(filter));
  if (!isCardList(body)) throw new Error(`${threadFileFor(filter)} does not hold thread cards`);
  return body;
}

interface CachedList {
  /** The catalogue's generatedAt: a list cached from an older catalogue is not reused. */
  version: string;
  cards: ThreadCard[];
}

/**
 * Loads one filter's list: from the browser cache while it is fresh (1 hour) and from the same
 * catalogue `version`, otherwise from the network with retries. `force` skips the cache ('Try Again').
 */
export async function loadThreads(filter: ThreadFilter, { force = false, version = '' } = {}): Promise<void> {
  const current = $threadLists.get()[filter];
  if (current.status === 'loading' || (current.status === 'ready' && !force)) return;
  const storage = browserStorage();
  const cached =
    force || !storage ? null : readCache<CachedList>(storage, cacheKey(filter), THREAD_LIST_CACHE_TTL_MS);
  if (cached && cached.version === version && isCardList(cached.cards)) {
    $threadLists.setKey(filter, { status: 'ready', cards: cached.cards });
    return;
  }
  $threadLists.setKey(filter, { status: 'loading' });
  try {
    const cards = await withRetry(() => fetchCards(filter), THREAD_FETCH_RETRY);
    if (storage) writeCache<CachedList>(storage, cacheKey(filter), { version, cards });
    $threadLists.setKey(filter, { status: 'ready', cards });
  } catch {
    $threadLists.setKey(filter, { status: 'error' });
  }
}
