interface CacheEntry<T> {
  savedAt: number;
  value: T;
}

/** Reads a value saved by `writeCache` if it is younger than `ttlMs`; anything else reads as null. */
export function readCache<T>(storage: Storage, key: string, ttlMs: number, now = Date.now()): T | null {
  try {
    const raw = storage.getItem(key);
    if (raw === null) return null;
    const entry = JSON.parse(raw) as Partial<CacheEntry<T>>;
    if (typeof entry.savedAt !== 'number' || !('value' in entry)) return null;
    const age = now - entry.savedAt;
    return age >= 0 && age < ttlMs ? (entry.value as T) : null;
  } catch {
    return null;
  }
}

/** Saves a value with its time; a full or disabled storage is not an error, the cache just stays cold. */
export function writeCache<T>(storage: Storage, key: string, value: T, now = Date.now()): void {
  try {
    storage.setItem(key, JSON.stringify({ savedAt: now, value } satisfies CacheEntry<T>));
  } catch {
    // Quota exceeded or storage disabled (private mode): the next load fetches again.
  }
}

/** The browser's localStorage, or null where scripts may not use it. */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
