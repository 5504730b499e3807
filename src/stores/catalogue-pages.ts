import { THREAD_FETCH_RETRY, THREAD_LIST_CACHE_TTL_MS } from '../../contract/constants.ts';
import {
  CataloguePageSchema,
  pageUrl,
  type CatalogueListKey,
  type CataloguePage,
} from '../../contract/catalogue-pages.ts';
import { browserStorage, readCache, writeCache } from '../lib/cache.ts';
import { fetchJson, HttpStatusError } from '../lib/fetch-json.ts';
import { withRetry } from '../lib/retry.ts';

const CACHE_PREFIX = 'curated-threads:page:';
/** Keys of the old whole-list cache (up to 15 MB each at 100k threads): removed on first use. */
const LEGACY_PREFIX = 'curated-threads:threads-';

/** Whether `body` is a catalogue page: the contract's schema decides, as on the server. */
function isPage(body: unknown): body is CataloguePage {
  return CataloguePageSchema.safeParse(body).success;
}

/** Whether a cached page may stand for the one asked for: same version, and for a first page the same head. */
function isCurrent(page: CataloguePage, number: number, version: string, head: string | null): boolean {
  // A first page carries the tail (decision 037): one written for another head misses approvals.
  return page.version === version && (number !== 1 || (page.head ?? null) === head);
}

/** Pages kept in localStorage at most (about 10 KB each): the rest of the storage belongs to others. */
const MAX_CACHED_PAGES = 40;

let legacyCleared = false;

/** A page that is not there (the catalogue shrank) will not appear by waiting. */
function isWorthRetrying(error: unknown): boolean {
  return !(error instanceof HttpStatusError && error.status === 404);
}

function storage(): Storage | null {
  const store = browserStorage();
  if (store && !legacyCleared) {
    legacyCleared = true;
    try {
      for (const key of Object.keys(store)) if (key.startsWith(LEGACY_PREFIX)) store.removeItem(key);
    } catch {
      // Storage that cannot be listed just keeps its old entries.
    }
  }
  return store;
}

/** Keeps at most MAX_CACHED_PAGES page entries, dropping the ones saved longest ago. */
function evictOldPages(store: Storage): void {
  try {
    const entries = Object.keys(store)
      .filter((key) => key.startsWith(CACHE_PREFIX))
      .map((key) => {
        const savedAt = (JSON.parse(store.getItem(key) ?? '{}') as { savedAt?: unknown }).savedAt;
        return { key, savedAt: typeof savedAt === 'number' ? savedAt : 0 };
      })
      .sort((a, b) => b.savedAt - a.savedAt);
    for (const { key } of entries.slice(MAX_CACHED_PAGES)) store.removeItem(key);
  } catch {
    // Storage that cannot be listed or read keeps its entries; writes then fail quietly.
  }
}

/**
 * One page of a list. From the browser cache when it was saved less than an hour ago for the same
 * catalogue `version` (spec section 9; the version changes with every full export) and, for a first
 * page, the same `head` (it changes with every approval: decision 037), otherwise from the network
 * with retries. `force` skips the cache ('Try Again').
 */
export async function fetchPage(
  list: CatalogueListKey,
  page: number,
  {
    version,
    head = null,
    force = false,
    keep = true,
  }: {
    version: string;
    /** The manifest's `head` (null: no tail); only a first page is checked against it. */
    head?: string | null;
    force?: boolean;
    /** False for pages read only for a few cards (search results): not worth a cache entry. */
    keep?: boolean;
  },
): Promise<CataloguePage> {
  const store = storage();
  // One key per list and page (not per version), so old versions are overwritten, never piled up.
  const key = `${CACHE_PREFIX}${list}:${page}`;
  const cached =
    force || !store || !version ? null : readCache<unknown>(store, key, THREAD_LIST_CACHE_TTL_MS);
  if (isPage(cached) && isCurrent(cached, page, version, head)) return cached;
  const url = pageUrl(list, page);
  const body = await withRetry(
    async () => {
      const fetched = await fetchJson(url);
      if (!isPage(fetched)) throw new Error(`${url} does not hold a catalogue page`);
      return fetched;
    },
    THREAD_FETCH_RETRY,
    isWorthRetrying,
  );
  if (store && keep) {
    writeCache(store, key, body);
    evictOldPages(store);
  }
  return body;
}
