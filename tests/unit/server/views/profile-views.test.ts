import { expect, test } from 'vitest';
import type { ProfileCollections } from '../../../../contract/gems.ts';
import { toOwnProfile, toPendingUser, toPublicProfile } from '../../../../server/views/profile-views.ts';
import { PROFILE, USER } from './rows.ts';

const COLLECTIONS: ProfileCollections = {
  gems: ['g1'],
  own_threads: [],
  gem_cards: [],
  thread_cards: [],
  gem_count: 1,
  thread_count: 0,
};

test('a public profile shows the display name, the Threads name, the bio and the collections', () => {
  const approved = { ...PROFILE, status: 'approved' as const };
  expect(toPublicProfile({ profile: approved, user: USER }, COLLECTIONS)).toEqual({
    username: 'maren',
    threads_username: 'maren.makes',
    bio: 'Type and grids.',
    // The collections pass through as they are.
    ...COLLECTIONS,
  });
});

test('a public profile without a display name goes by the Threads username', () => {
  const unnamed = { ...PROFILE, displayUsername: null };
  expect(toPublicProfile({ profile: unnamed, user: USER }, COLLECTIONS).username).toBe('maren.makes');
});

test("the member's own profile carries its status and the display name as stored", () => {
  expect(toOwnProfile({ profile: { ...PROFILE, displayUsername: null }, user: USER }, COLLECTIONS)).toEqual({
    status: 'pending',
    threads_username: 'maren.makes',
    display_username: null,
    bio: 'Type and grids.',
    // The collections pass through as they are.
    ...COLLECTIONS,
  });
});

test('a pending user names the Threads user id, never the internal one, and when they asked', () => {
  expect(toPendingUser({ profile: PROFILE, user: USER })).toEqual({
    user_id: '17841400000000001',
    threads_username: 'maren.makes',
    display_username: 'maren',
    bio: 'Type and grids.',
    requested_at: '2026-01-05T10:00:00.000Z',
  });
});
