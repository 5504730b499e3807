import { describe, expect, test } from 'vitest';
import { describeFreshness, freshnessText, operatorFreshnessText } from '../../../contract/freshness.ts';

const manifest = { generatedAt: '2026-11-21T10:00:00.000Z', nextUpdate: '2026-11-21T11:00:00.000Z' };

describe('describeFreshness', () => {
  test.each([
    ['right after generation', '2026-11-21T10:00:00.000Z', { fresh: true, ageHours: 0 }],
    ['59 minutes later', '2026-11-21T10:59:59.000Z', { fresh: true, ageHours: 0 }],
    ['exactly at nextUpdate', '2026-11-21T11:00:00.000Z', { fresh: false, ageHours: 1 }],
    ['a day later', '2026-11-22T10:30:00.000Z', { fresh: false, ageHours: 24 }],
    ['a clock behind the server', '2026-11-21T09:00:00.000Z', { fresh: true, ageHours: 0 }],
  ])('%s', (_name, now, expected) => {
    expect(describeFreshness(manifest, new Date(now))).toEqual(expected);
  });
});

describe('freshnessText', () => {
  test.each([
    [{ fresh: true, ageHours: 0 }, 'Updated less than an hour ago'],
    [{ fresh: true, ageHours: 1 }, 'Updated 1 hour ago'],
    [{ fresh: false, ageHours: 5 }, 'Updated 5 hours ago'],
    [{ fresh: false, ageHours: 47 }, 'Updated 47 hours ago'],
    [{ fresh: false, ageHours: 50 }, 'Updated 2 days ago'],
  ])('%o reads "%s"', (freshness, text) => {
    expect(freshnessText(freshness)).toBe(text);
  });
});

describe('operatorFreshnessText', () => {
  test.each([
    [{ fresh: true, ageHours: 0 }, 'generated 0 h ago; fresh (before nextUpdate)'],
    [{ fresh: false, ageHours: 50 }, 'generated 50 h ago; a refresh is due (past nextUpdate)'],
  ])('%o reads "%s"', (freshness, text) => {
    expect(operatorFreshnessText(freshness)).toBe(text);
  });
});
