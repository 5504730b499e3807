import { lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema.ts';

export interface CounterHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Milliseconds until the window ends (never negative). */
  resetInMs: number;
}

/**
 * Fixed-window counters that several instances share (decision 066). Times are the database's
 * `now()`, so instances with skewed clocks agree on when a window ends.
 */
export function createRateLimitCountersRepository(db: Database) {
  return {
    /**
     * Counts one hit on `key` in ONE statement: a new key, or one whose window has ended, starts a
     * window of `windowMs` at 1; otherwise its count goes up by one. Concurrent hits on one key wait
     * for each other's row lock, so every hit gets its own count, on any number of instances.
     */
    async hit(key: string, windowMs: number, tx: Database = db): Promise<CounterHit> {
      const windowEnd = sql`now() + make_interval(secs => ${windowMs / 1000})`;
      // In SET, the table's columns are the stored row's values: both CASEs test the same window.
      const ended = sql`${rateLimitCounters.resetAt} <= now()`;
      const [row] = await tx
        .insert(rateLimitCounters)
        .values({ key, hits: 1, resetAt: windowEnd })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            hits: sql`case when ${ended} then 1 else ${rateLimitCounters.hits} + 1 end`,
            resetAt: sql`case when ${ended} then ${windowEnd} else ${rateLimitCounters.resetAt} end`,
          },
        })
        .returning({
          hits: rateLimitCounters.hits,
          // In RETURNING they are the row as written.
          resetInMs:
            sql<number>`greatest(0, extract(epoch from ${rateLimitCounters.resetAt} - now()) * 1000)::float8`.mapWith(
              Number,
            ),
        });
      if (!row) throw new Error('the rate-limit upsert returned no row');
      // A statement that waited on another's fresh row reads its window from an earlier now():
      // a hair over the window, which no answer should say.
      return { hits: row.hits, resetInMs: Math.min(windowMs, Math.ceil(row.resetInMs)) };
    },

    /** Deletes the counters whose window has ended (a new hit would start over anyway); returns how many. */
    async deleteEnded(tx: Database = db): Promise<number> {
      const removed = await tx
        .delete(rateLimitCounters)
        .where(lte(rateLimitCounters.resetAt, sql`now()`))
        .returning({ key: rateLimitCounters.key });
      return removed.length;
    },
  };
}

export type RateLimitCountersRepository = ReturnType<typeof createRateLimitCountersRepository>;
