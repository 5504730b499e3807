import { expect, test } from 'vitest';
import { sourceBadge } from '../../../contract/review.ts';
import {
  generatedPostBadgeTone,
  NOTES_MAX_LENGTH,
  notesProblem,
  submissionBadgeTone,
  waitingSubmissionsNote,
} from '../../../contract/submission.ts';

test('source badges: the four known sources in words, anything else as it is', () => {
  expect(['user_own', 'public_search', 'public_tag', 'manual_submission', 'other'].map(sourceBadge)).toEqual([
    'Your Post',
    'Keyword Search',
    'Tag Search',
    'Member Submission',
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

test('notes: line breaks and emoji pass; controls, direction overrides and lone surrogates are refused', () => {
  expect(notesProblem('Two lines\nand a tab\there 👩🏽‍🎨')).toBeNull();
  for (const bad of [
    'nul \u0000',
    'bell \u0007',
    'flip \u202E',
    'isolate \u2066',
    'half \uD83D alone',
    '\uDC00',
  ])
    expect(notesProblem(bad), JSON.stringify(bad)).toBe(
      'Notes cannot contain control or text-direction characters.',
    );
  expect(notesProblem('é'.repeat(NOTES_MAX_LENGTH))).toBeNull();
  expect(notesProblem('x'.repeat(NOTES_MAX_LENGTH + 1))).toBe(
    `Notes can be at most ${NOTES_MAX_LENGTH} characters.`,
  );
});

test('the Manual Submissions tab says how many submissions still wait for review', () => {
  expect(waitingSubmissionsNote([{ status: 'approved' }, { status: 'rejected' }])).toBeNull();
  expect(waitingSubmissionsNote([{ status: 'pending' }, { status: 'approved' }])).toBe(
    '1 submission of yours is waiting for review; once approved, the post made from it is listed here.',
  );
  expect(waitingSubmissionsNote([{ status: 'pending' }, { status: 'pending' }])).toMatch(
    /^2 submissions of yours are waiting for review;/,
  );
});
