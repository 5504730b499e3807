/** "Nov 21, 2026": the same text on the build machine, the server and every browser (UTC, English). */
export function calendarDate(iso: string): string {
  return new Intl.DateTimeFormat('en', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(iso));
}
