import { expect, test } from 'vitest';
import { ownThreadsSummary } from '../../../contract/review.ts';

// Issue 20: the dashboard lists every thread of a member's, the profile counts those in the
// catalogue; the summary says both, in words.
test('a member reads how many threads are theirs and how many of them are in the catalogue', () => {
  expect(ownThreadsSummary(['pending', 'approved', 'pending', 'rejected', 'pending'])).toBe(
    '5 threads of yours: 1 in the catalogue, 3 waiting for review, 1 declined',
  );
  // The catalogue's count is said even when it is none: it is the number the profile shows.
  expect(ownThreadsSummary(['pending'])).toBe('1 thread of yours: 0 in the catalogue, 1 waiting for review');
  expect(ownThreadsSummary(['removed', 'hidden', 'approved'])).toBe(
    '3 threads of yours: 1 in the catalogue, 1 hidden by an admin, 1 taken out by you',
  );
});
