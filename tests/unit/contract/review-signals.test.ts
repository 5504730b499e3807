import { expect, test } from 'vitest';
import {
  authorHistoryChip,
  duplicateChip,
  highlightParts,
  scoreChip,
} from '../../../contract/review-signals.ts';

test('the words of the keyword or tag are cut out of the text without regard to case; the rest stays text', () => {
  expect(highlightParts('Design systems: a DESIGN talk', 'design')).toEqual([
    { text: 'Design', mark: true },
    { text: ' systems: a ', mark: false },
    { text: 'DESIGN', mark: true },
    { text: ' talk', mark: false },
  ]);
  expect(highlightParts('Type scale and typeface', '#Type Scale')).toEqual([
    { text: 'Type', mark: true },
    { text: ' ', mark: false },
    { text: 'scale', mark: true },
    { text: ' and ', mark: false },
    { text: 'type', mark: true },
    { text: 'face', mark: false },
  ]);
  // Markup stays characters: the page renders parts as text nodes.
  expect(highlightParts('<b>ux</b>', 'ux')).toEqual([
    { text: '<b>', mark: false },
    { text: 'ux', mark: true },
    { text: '</b>', mark: false },
  ]);
  expect(highlightParts('No query', null)).toEqual([{ text: 'No query', mark: false }]);
  expect(highlightParts('İstanbul ux', 'ux')).toEqual([{ text: 'İstanbul ux', mark: false }]);
});

test('the chips say in words what matched, how the other thread stands, and the history', () => {
  expect(duplicateChip({ match: 'link', status: 'rejected' })).toBe('Same link as a thread already rejected');
  expect(duplicateChip({ match: 'image', status: 'approved' })).toBe(
    'Same picture as a thread already approved',
  );
  expect(authorHistoryChip({ author_approved: 3, author_rejected: 1 })).toBe(
    'Author: 3 approved, 1 rejected here',
  );
  expect(authorHistoryChip({ author_approved: 0, author_rejected: 0 })).toBe(
    'Author: nothing decided here before',
  );
  expect(scoreChip(72)).toBe('Score 72 of 100');
});
