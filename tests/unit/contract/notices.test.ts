import { expect, test } from 'vitest';
import { NOTICE_EXCERPT_MAX, NOTICE_TEXTS, noticeExcerpt, noticeText } from '../../../contract/notices.ts';

test('each notice says its decision in words, with the reason when there is one', () => {
  expect(noticeText('submission_rejected', { reason: ' Off topic ' })).toBe(
    'Your submission was declined: Off topic',
  );
  expect(noticeText('submission_rejected', { reason: null })).toBe('Your submission was declined.');
  expect(noticeText('submission_approved', {})).toBe(
    'Your submission was approved and is now in the catalogue.',
  );
  expect(noticeText('invite_rejected', {})).toBe('Your invite request was declined.');
  expect(noticeText('invite_approved', {})).toContain('Your invite was approved');
  expect(noticeText('gem_removed', { cause: 'removed_by_author' })).toBe(
    'A thread you saved as a gem left the catalogue: its author removed it.',
  );
  // A row written before causes were kept reads as the commonest cause.
  expect(noticeText('gem_removed', {})).toContain('it was deleted on Threads');
});

test('the excerpt folds spaces and cuts long text at the bound, by characters not code units', () => {
  expect(noticeExcerpt('  A\n\tgrid  study ')).toBe('A grid study');
  expect(noticeExcerpt('   ')).toBeNull();
  const long = '😀'.repeat(NOTICE_EXCERPT_MAX + 10);
  const cut = noticeExcerpt(long) ?? '';
  expect([...cut]).toHaveLength(NOTICE_EXCERPT_MAX);
  expect(cut.endsWith('…')).toBe(true);
  expect(noticeExcerpt('😀'.repeat(NOTICE_EXCERPT_MAX))).toBe('😀'.repeat(NOTICE_EXCERPT_MAX));
});

test('the button names its unread count', () => {
  expect(NOTICE_TEXTS.label(0)).toBe('Notices');
  expect(NOTICE_TEXTS.label(2)).toBe('Notices 2 unread');
});
