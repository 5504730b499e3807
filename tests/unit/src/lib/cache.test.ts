import { describe, expect, test } from 'vitest';
import { THREAD_LIST_CACHE_TTL_MS } from '../../../../contract/constants.ts';
import { readCache, writeCache } from '../../../../src/lib/cache.ts';

/** A real Storage-shaped store in memory; `full` makes every write fail like an exceeded quota. */
function memoryStorage(full = false): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => {
      if (full) throw new DOMException('quota exceeded', 'QuotaExceededError');
      items.set(key, value);
    },
  };
}

describe('thread list cache', () => {
  const saved = 1_800_000_000_000;

  test('is fresh for one hour, then reads as missing', () => {
    const storage = memoryStorage();
    writeCache(storage, 'k', [{ id: 'a' }], saved);
    expect(readCache(storage, 'k', THREAD_LIST_CACHE_TTL_MS, saved + THREAD_LIST_CACHE_TTL_MS - 1)).toEqual([
      { id: 'a' },
    ]);
    expect(readCache(storage, 'k', THREAD_LIST_CACHE_TTL_MS, saved + THREAD_LIST_CACHE_TTL_MS)).toBeNull();
  });

  test('ignores entries from the future and malformed entries', () => {
    const storage = memoryStorage();
    writeCache(storage, 'future', 1, saved + 5000);
    expect(readCache(storage, 'future', THREAD_LIST_CACHE_TTL_MS, saved)).toBeNull();
    storage.setItem('garbage', '{not json');
    expect(readCache(storage, 'garbage', THREAD_LIST_CACHE_TTL_MS, saved)).toBeNull();
    storage.setItem('shape', JSON.stringify({ value: 1 }));
    expect(readCache(storage, 'shape', THREAD_LIST_CACHE_TTL_MS, saved)).toBeNull();
  });

  test('a full storage does not throw; the cache just stays cold', () => {
    const storage = memoryStorage(true);
    expect(() => writeCache(storage, 'k', 'v', saved)).not.toThrow();
    expect(readCache(storage, 'k', THREAD_LIST_CACHE_TTL_MS, saved)).toBeNull();
  });
});
