import { expect, test } from 'vitest';
import { BoundedCache } from '../../../../../server/publisher/serve/bounded-cache.ts';

test('drops the least recently used entry beyond the entry bound', () => {
  const cache = new BoundedCache<string>({ maxEntries: 3, maxBytes: 1_000 });
  for (const key of ['a', 'b', 'c']) cache.set(key, key.toUpperCase(), 1);
  expect(cache.get('a')).toBe('A'); // now the newest: b is the oldest
  cache.set('d', 'D', 1);
  expect(cache.get('b')).toBeUndefined();
  expect(['a', 'c', 'd'].map((key) => cache.get(key))).toEqual(['A', 'C', 'D']);
  expect(cache.size).toEqual({ entries: 3, bytes: 3 });
});

test('drops the oldest entries until the bytes fit, and never keeps a value over the budget', () => {
  const cache = new BoundedCache<string>({ maxEntries: 100, maxBytes: 100 });
  cache.set('a', 'a', 40);
  cache.set('b', 'b', 40);
  cache.set('c', 'c', 40);
  expect(cache.get('a')).toBeUndefined();
  expect(cache.size).toEqual({ entries: 2, bytes: 80 });
  cache.set('huge', 'h', 101);
  expect(cache.get('huge')).toBeUndefined();
  expect(cache.size).toEqual({ entries: 2, bytes: 80 });
});

test('replacing, deleting and clearing keep the byte count true', () => {
  const cache = new BoundedCache<string>({ maxEntries: 10, maxBytes: 100 });
  cache.set('a', 'one', 30);
  cache.set('a', 'two', 50);
  expect(cache.get('a')).toBe('two');
  expect(cache.size).toEqual({ entries: 1, bytes: 50 });
  cache.delete('a');
  cache.delete('missing');
  expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  cache.set('b', 'b', 10);
  cache.clear();
  expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  expect(cache.get('b')).toBeUndefined();
});
