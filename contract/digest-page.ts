/**
 * The published digests as the site renders them (decision 057): the server exports them after each
 * publication, the site renders `/digest/`, `/digest/{year}-{week}` and the digests' feeds from them.
 */
import { calendarDate } from './calendar-date.ts';
import { DIGEST_ID, weekRange, type IsoWeek } from './digest.ts';
import { ThreadCardListSchema } from './thread-card.ts';
import { z } from './zod.ts';

/** One published digest: its week, the editor's note and its threads, in the digest's order. */
export const PublishedDigestSchema = z.strictObject({
  id: z.string().check(z.regex(DIGEST_ID)),
  year: z.int(),
  week: z.int().check(z.minimum(1), z.maximum(53)),
  published_at: z.iso.datetime({ offset: true }),
  note: z.string(),
  /** The threads still approved now: one removed since is gone from its digest too. */
  cards: ThreadCardListSchema,
});
export type PublishedDigest = z.infer<typeof PublishedDigestSchema>;

/** Every published digest, newest first. */
export const PublishedDigestsSchema = z.array(PublishedDigestSchema);

/** How many digests the digests' feeds carry (a year's). */
export const DIGEST_FEED_LIMIT = 52;

/** "Week 48, 2026": a digest's name. */
export function digestName({ year, week }: IsoWeek): string {
  return `Week ${week}, ${year}`;
}

/** "Nov 23 – Nov 29, 2026": the days its threads were curated in. */
export function digestDays(week: IsoWeek): string {
  const { start, end } = weekRange(week);
  const last = new Date(end.getTime() - 86_400_000).toISOString();
  const first = calendarDate(start.toISOString());
  // The year once, unless the week spans two.
  const sameYear = start.getUTCFullYear() === new Date(last).getUTCFullYear();
  return `${sameYear ? first.replace(/, \d{4}$/, '') : first} – ${calendarDate(last)}`;
}
