import { and, count, desc, eq, getTableColumns, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { ThreadSource } from '../../contract/review.ts';
import type { Database } from '../db/client.ts';
import { manualSubmissions, threads } from '../db/schema.ts';
import { rejectedTwice, SIGNAL_COLUMNS } from './review-signals.ts';
import type { ThreadRow } from './threads.ts';

export interface ReviewFilter {
  source?: ThreadSource | undefined;
  query?: string | undefined;
  /** Leave out authors whose threads were rejected twice or more (decision 055). */
  hideRejectedAuthors?: boolean | undefined;
}

/**
 * Where a page starts: the sort key of the last thread of the page before. Timestamps stay text as
 * PostgreSQL printed them (microseconds and offset), so the key compares exactly; a JS Date would
 * round to milliseconds and skip or repeat threads.
 */
export type ReviewKey =
  | { sort: 'newest'; at: string; id: string }
  | { sort: 'likes'; likes: number; at: string; id: string }
  // The order by score is ranked in memory over a bounded window (decision 055).
  | { sort: 'score'; score: number; id: string };
/** The keys the database pages by. */
export type TableKey = Exclude<ReviewKey, { sort: 'score' }>;

/** A pending thread's duplicate keys and score features, read with it. */
export interface PendingFacts {
  textKey: string | null;
  linkKey: string | null;
  imageKey: string | null;
  image: boolean;
  short: boolean;
  long: boolean;
  link_only: boolean;
  promo: boolean;
}

export type PendingRow = ThreadRow & { notes: string | null; key: TableKey };
/** A page's row with what its signals need. */
export type PendingSignalRow = PendingRow & { facts: PendingFacts };

// The spec's order (newest post first), then the id so that every key is unique.
const postedAt = sql`coalesce(${threads.postedAt}, ${threads.createdAt})`;
// Unknown likes (searched posts) sort after every known count.
const likes = sql`coalesce(${threads.likes}, -1)`;

function filterWhere({ source, query, hideRejectedAuthors }: ReviewFilter): SQL[] {
  return [
    eq(threads.status, 'pending'),
    ...(source ? [eq(threads.source, source)] : []),
    ...(query ? [eq(threads.query, query)] : []),
    ...(hideRejectedAuthors ? [sql`not (${rejectedTwice()})`] : []),
  ];
}

/** Rows after `key` in its order: every column descends, so one row comparison does it. */
function after(key: TableKey): SQL {
  return key.sort === 'newest'
    ? sql`(${postedAt}, ${threads.id}) < (${key.at}::timestamptz, ${key.id}::uuid)`
    : sql`(${likes}, ${postedAt}, ${threads.id}) < (${key.likes}, ${key.at}::timestamptz, ${key.id}::uuid)`;
}

/** The review queue read a page at a time (keyset paging), its counts, and its keywords and tags. */
export function createReviewQueueRepository(db: Database) {
  return {
    /** Up to `limit` pending threads after `key` (from the start without one), each with its member's note. */
    async page(
      filter: ReviewFilter,
      sort: TableKey['sort'],
      key: TableKey | null,
      limit: number,
      tx: Database = db,
    ): Promise<PendingSignalRow[]> {
      const order =
        sort === 'newest'
          ? [sql`${postedAt} desc`, desc(threads.id)]
          : [sql`${likes} desc`, sql`${postedAt} desc`, desc(threads.id)];
      const rows = await tx
        .select({
          ...getTableColumns(threads),
          notes: manualSubmissions.notes,
          // Written out in UTC with microseconds: `::text` would follow the server's DateStyle.
          keyAt: sql<string>`to_char(${postedAt} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'`,
          keyLikes: sql<number>`${likes}`.mapWith(Number),
          facts: SIGNAL_COLUMNS,
        })
        .from(threads)
        .leftJoin(manualSubmissions, eq(manualSubmissions.threadId, threads.id))
        .where(and(...filterWhere(filter), ...(key ? [after(key)] : [])))
        .orderBy(...order)
        .limit(limit);
      return rows.map(({ keyAt, keyLikes, ...row }) => ({
        ...row,
        key:
          sort === 'newest'
            ? { sort, at: keyAt, id: row.id }
            : { sort, likes: keyLikes, at: keyAt, id: row.id },
      }));
    },

    /** How many pending threads match the filters. */
    async count(filter: ReviewFilter, tx: Database = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(threads)
        .where(and(...filterWhere(filter)));
      return row?.n ?? 0;
    },

    /** Every keyword and tag that found pending threads, with how many wait, most first. */
    async queries(tx: Database = db): Promise<{ source: ThreadSource; query: string; count: number }[]> {
      const rows = await tx
        .select({ source: threads.source, query: threads.query, count: count() })
        .from(threads)
        .where(and(eq(threads.status, 'pending'), isNotNull(threads.query)))
        .groupBy(threads.source, threads.query)
        .orderBy(desc(count()), threads.query);
      return rows.flatMap((row) => (row.query === null ? [] : [{ ...row, query: row.query }]));
    },

    /** How many pending threads each source has. */
    async sources(tx: Database = db): Promise<{ source: ThreadSource; count: number }[]> {
      return tx
        .select({ source: threads.source, count: count() })
        .from(threads)
        .where(eq(threads.status, 'pending'))
        .groupBy(threads.source)
        .orderBy(threads.source);
    },

    /** The current status of each of `ids` that exists. */
    async statuses(ids: string[], tx: Database = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: threads.id, status: threads.status })
        .from(threads)
        .where(inArray(threads.id, ids));
      return new Map(rows.map((row) => [row.id, row.status]));
    },
  };
}
export type ReviewQueueRepository = ReturnType<typeof createReviewQueueRepository>;
