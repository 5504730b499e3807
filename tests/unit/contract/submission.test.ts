import { expect, test } from 'vitest';
import { sourceBadge } from '../../../contract/review.ts';
import { generatedPostBadgeTone, submissionBadgeTone } from '../../../contract/submission.ts';

test('source badges: the three known sources by name, anything else as it is', () => {
  expect(['user_own', 'public_search', 'public_tag', 'manual_submission', 'other'].map(sourceBadge)).toEqual([
    'Your Post',
    'Keyword Search',
    'Tag Search',
    'manual_submission',
    'other',
  ]);
});

test('status badges: approved/published green, pending yellow, anything else gray', () => {
  expect(['approved', 'pending', 'rejected', 'hidden', ''].map(submissionBadgeTone)).toEqual([
    'green',
    'yellow',
    'gray',
    'gray',
    'gray',
  ]);
  expect(['published', 'pending', 'failed', 'approved'].map(generatedPostBadgeTone)).toEqual([
    'green',
    'yellow',
    'gray',
    'gray',
  ]);
});
