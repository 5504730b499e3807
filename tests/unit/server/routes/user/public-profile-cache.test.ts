import { expect, test } from 'vitest';
import { PublicProfileCache } from '../../../../../server/routes/user/public-profile-cache.ts';

const profile = {
  username: 'Ada',
  threads_username: 'ada',
  bio: '',
  gems: [],
  own_threads: [],
  gem_cards: [],
  thread_cards: [],
  gem_count: 0,
  thread_count: 0,
};

test('answers by name without regard to case, remembers misses, and forgets on clear or expiry', () => {
  let now = 0;
  const cache = new PublicProfileCache(() => now);
  expect(cache.get('ada')).toBeUndefined();
  cache.set('Ada', profile);
  cache.set('ghost', null);
  expect(cache.get('ADA')).toEqual(profile);
  expect(cache.get('ghost')).toBeNull();
  cache.clear();
  expect(cache.get('ada')).toBeUndefined();
  cache.set('ada', profile);
  now += 30_001;
  expect(cache.get('ada')).toBeUndefined();
});

test('a lookup that began before a write does not store what it read', () => {
  const cache = new PublicProfileCache();
  const generation = cache.generation();
  cache.clear(); // a gem save or profile edit committed while the lookup ran
  cache.set('ada', profile, generation);
  expect(cache.get('ada')).toBeUndefined();
  cache.set('ada', profile, cache.generation());
  expect(cache.get('ada')).toEqual(profile);
});
