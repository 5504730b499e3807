import { expect, test } from 'vitest';
import { createPublicProfileCache } from '../../../../../server/routes/user/public-profile-cache.ts';
import { NO_COLLECTIONS } from '../../../helpers/profile-collections.ts';

const body = JSON.stringify({
  username: 'Ada',
  threads_username: 'ada',
  bio: '',
  ...NO_COLLECTIONS,
});

test('answers by name without regard to case, remembers misses, and forgets on clear or expiry', () => {
  let now = 0;
  const cache = createPublicProfileCache(() => now);
  expect(cache.get('ada')).toBeUndefined();
  cache.set('Ada', body, cache.generation());
  cache.set('ghost', null, cache.generation());
  expect(cache.get('ADA')).toBe(body);
  expect(cache.get('ghost')).toBeNull();
  cache.clear();
  expect(cache.get('ada')).toBeUndefined();
  cache.set('ada', body, cache.generation());
  now += 30_001;
  expect(cache.get('ada')).toBeUndefined();
});

test('a lookup that began before a write does not store what it read', () => {
  const cache = createPublicProfileCache();
  const generation = cache.generation();
  cache.clear(); // a gem save or profile edit committed while the lookup ran
  cache.set('ada', body, generation);
  expect(cache.get('ada')).toBeUndefined();
  cache.set('ada', body, cache.generation());
  expect(cache.get('ada')).toBe(body);
});
