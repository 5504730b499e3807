import { expect, test } from 'vitest';
import { refreshInterval } from '../../../../src/lib/about.ts';

const at = (minutes: number) => ({
  generatedAt: '2026-11-28T10:00:00Z',
  nextUpdate: new Date(Date.parse('2026-11-28T10:00:00Z') + minutes * 60_000).toISOString(),
});

test('the refresh interval in words, from the manifest the build reads', () => {
  expect(refreshInterval(at(60))).toBe('every hour');
  expect(refreshInterval(at(30))).toBe('every 30 minutes');
  expect(refreshInterval(at(360))).toBe('every 6 hours');
  expect(refreshInterval(at(90))).toBe('every 90 minutes');
  // Dates that say nothing about an interval say nothing.
  expect(refreshInterval(at(0))).toBeNull();
  expect(refreshInterval({ generatedAt: 'not a date', nextUpdate: 'either' })).toBeNull();
});
