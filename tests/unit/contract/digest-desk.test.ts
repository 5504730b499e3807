import { expect, test } from 'vitest';
import {
  DIGEST_DESK_TEXTS,
  draftWeekInWords,
  publishesInWords,
  utcMomentInWords,
} from '../../../contract/digest-desk.ts';

test('the digest tab says its week and its publication in words, in UTC', () => {
  expect(utcMomentInWords(new Date('2026-11-30T00:00:00.000Z'))).toBe('Monday 30 November at 00:00 UTC');
  expect(draftWeekInWords({ id: '2026-48' })).toBe(
    'Week 48 of 2026: Monday 23 November to Sunday 29 November',
  );
  // A week across the new year.
  expect(draftWeekInWords({ id: '2026-53' })).toBe('Week 53 of 2026: Monday 28 December to Sunday 3 January');
  const at = '2026-12-01T00:00:00.000Z';
  expect(publishesInWords(at, new Date('2026-11-29T14:00:00Z'))).toBe(
    'Publishes Tuesday 1 December at 00:00 UTC',
  );
  // Past its time it waits for the hourly job: no moment in the past is announced as to come.
  expect(publishesInWords(at, new Date('2026-12-01T00:30:00Z'))).toBe(
    'Due since Tuesday 1 December at 00:00 UTC: it is published within the hour',
  );
});

test('counts are said in words, one and many', () => {
  expect(DIGEST_DESK_TEXTS.gems(1)).toBe('1 gem');
  expect(DIGEST_DESK_TEXTS.gems(0)).toBe('0 gems');
  expect(DIGEST_DESK_TEXTS.subscribers(1)).toBe('1 confirmed subscriber will receive it by mail.');
  expect(DIGEST_DESK_TEXTS.mailLog({ queued: 1, sending: 0, sent: 4, failed: 2 })).toBe(
    'Mail so far: 4 sent, 1 waiting, 0 sending, 2 failed.',
  );
});
