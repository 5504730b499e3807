import { calendarDate, relativeTime } from '../../lib/format.ts';
import { useNow } from '../../lib/use-now.ts';

/**
 * A moment as "3 hours ago", machine-readable in `dateTime`. The pre-rendered HTML carries the date
 * (a relative time would be wrong by the time it is read); the browser says how long ago once it runs.
 */
export default function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const now = useNow();
  return (
    <time className={className} dateTime={iso}>
      {now === null ? calendarDate(iso) : relativeTime(iso, now)}
    </time>
  );
}
