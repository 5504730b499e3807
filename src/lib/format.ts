import { calendarDate } from '../../contract/calendar-date.ts';

/** Compact count for card footers: 950, 1.2k, 12k, 1.5M. */
export function formatCount(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${trim(value / 1000)}k`;
  return `${trim(value / 1_000_000)}M`;
}

function trim(value: number): string {
  return value >= 10 ? String(Math.floor(value)) : String(Math.floor(value * 10) / 10);
}

/** "1 like" / "1.2k likes": the count with its noun, singular only for exactly one. */
export function countLabel(value: number, singular: string, plural: string): string {
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export { calendarDate };

/**
 * How long ago, as people say it: "just now", "5 minutes ago", "3 hours ago", "yesterday",
 * "4 days ago"; after four weeks the date itself. A moment in the future (a skewed clock) reads
 * "just now".
 */
export function relativeTime(iso: string, now: number): string {
  const age = now - Date.parse(iso);
  if (Number.isNaN(age)) return '';
  if (age < MINUTE) return 'just now';
  const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (age < HOUR) return words.format(-Math.floor(age / MINUTE), 'minute');
  if (age < DAY) return words.format(-Math.floor(age / HOUR), 'hour');
  if (age < 28 * DAY) return words.format(-Math.floor(age / DAY), 'day');
  return calendarDate(iso);
}
