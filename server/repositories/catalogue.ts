import { and, asc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { catalogueChanges, threads } from '../db/schema.ts';
import type { ThreadRow } from './threads.ts';

/**
 * When a post counts as posted for the catalogue's order (newest first, then by shortcode): its
 * time at the source, or when it was found. The same expression as the threads_catalogue_order index.
 */
export const CATALOGUE_ORDER = sql`coalesce(${threads.postedAt}, ${threads.createdAt})`;

/** Where a page of the catalogue order ended: the last row's order instant (as text) and shortcode. */
export interface CatalogueKey {
  at: string;
  shortcode: string;
}

/** The catalogue order as ORDER BY terms: the order instant descending, then the shortcode. */
export const CATALOGUE_ORDER_BY = [sql`${CATALOGUE_ORDER} desc`, asc(threads.shortcode)] as const;

/**
 * The approved threads after `after` in the catalogue order (null: all of them), as a keyset page's
 * condition. Trap: the key travels as text, not as a Date: created_at holds microseconds, which a JS
 * Date would round away, and the next page would then repeat or skip a row. timestamptz's text form
 * carries its offset, so it reads back as the same instant whatever the session's time zone.
 */
export function approvedAfter(after: CatalogueKey | null): SQL | undefined {
  return and(
    eq(threads.status, 'approved'),
    after
      ? and(
          // The first condition bounds the index scan; the second breaks ties within an instant.
          sql`${CATALOGUE_ORDER} <= ${after.at}::timestamptz`,
          or(sql`${CATALOGUE_ORDER} < ${after.at}::timestamptz`, gt(threads.shortcode, after.shortcode)),
        )
      : undefined,
  );
}

/**
 * Runs a keyset page's query with sorting off. Trap: without statistics (PGlite has no autovacuum; a
 * fresh PostgreSQL table neither) the planner picks a bitmap scan and a sort, which reads every row
 * after the key for each page, so an export grows with the square of the catalogue. Sorting off, for
 * this one query, leaves the index's own order: a page then reads its rows only, at any depth.
 */
export function withoutSort<T>(tx: Database, query: (page: Database) => Promise<T>): Promise<T> {
  return tx.transaction(async (page) => {
    await page.execute(sql`set local enable_sort = off`);
    return query(page);
  });
}

/** What the database had committed when a full export began to read it. */
export interface CatalogueSnapshot {
  /** `pg_current_snapshot()` as text: which transactions the export could see. */
  snapshot: string;
  /** The database's clock then. */
  at: Date;
}

/** A changed thread as it is now, placed against the export's newest card. */
export interface ChangedThread {
  row: ThreadRow;
  /** Whether it comes before the full export's newest card in the catalogue order. */
  newer: boolean;
}

/**
 * The public catalogue as the export reads it: the approved threads in catalogue order, page by page,
 * and the change log the `threads` trigger keeps (migration 0009, decision 037).
 */
export function createCatalogueRepository(db: Database) {
  return {
    /** Everything visitors see, newest post first (the catalogue order): the reference the pages follow. */
    async listApproved(tx: Database = db): Promise<ThreadRow[]> {
      return tx
        .select()
        .from(threads)
        .where(eq(threads.status, 'approved'))
        .orderBy(sql`${CATALOGUE_ORDER} desc`, asc(threads.shortcode));
    },

    /**
     * One page of the approved threads in catalogue order (listApproved's), the first `limit` after
     * `after` (null: from the start), and the key to pass for the next page (null after the last).
     * Keyset pagination over the threads_catalogue_order index: each page costs the same at any depth.
     */
    async listApprovedPage(
      after: CatalogueKey | null,
      limit: number,
      tx: Database = db,
    ): Promise<{ rows: ThreadRow[]; next: CatalogueKey | null }> {
      const rows = await withoutSort(tx, (page) =>
        page
          .select({ row: threads, at: sql<string>`${CATALOGUE_ORDER}::text` })
          .from(threads)
          .where(approvedAfter(after))
          .orderBy(...CATALOGUE_ORDER_BY)
          .limit(limit),
      );
      const last = rows.at(-1);
      return {
        rows: rows.map(({ row }) => row),
        next: last && rows.length === limit ? { at: last.at, shortcode: last.row.shortcode } : null,
      };
    },

    /** The current snapshot, taken before an export reads the catalogue. */
    async snapshot(): Promise<CatalogueSnapshot> {
      // Both drivers answer a raw query with its rows under `rows`.
      const result = (await db.execute(sql`select pg_current_snapshot()::text as snapshot, now() as at`)) as {
        rows: { snapshot: string; at: string | Date }[];
      };
      const [row] = result.rows;
      if (!row) throw new Error('The database returned no snapshot');
      return { snapshot: row.snapshot, at: new Date(row.at) };
    },

    /**
     * The threads changed by transactions `snapshot` could not see (committed after it, or running
     * then), at most `limit` of them (more means "too many to follow one by one"), each with whether
     * any of those changes found it approved (then the full export may hold it).
     */
    async changedSince(snapshot: string, limit: number): Promise<{ id: string; wasApproved: boolean }[]> {
      return db
        .select({
          id: catalogueChanges.threadId,
          wasApproved: sql<boolean>`bool_or(${catalogueChanges.wasApproved})`,
        })
        .from(catalogueChanges)
        .where(
          sql`${catalogueChanges.xid} >= pg_snapshot_xmin(${snapshot}::pg_snapshot)
            and not pg_visible_in_snapshot(${catalogueChanges.xid}, ${snapshot}::pg_snapshot)`,
        )
        .groupBy(catalogueChanges.threadId)
        .limit(limit);
    },

    /**
     * The threads of `ids` that still exist, each marked newer or not than `newestId` (the full
     * export's first card; null: it had none, so every thread is newer). A deleted thread is absent.
     */
    async placed(ids: readonly string[], newestId: string | null): Promise<ChangedThread[]> {
      if (ids.length === 0) return [];
      // The catalogue order: the order instant descending, then the shortcode ascending.
      const newer = newestId
        ? sql<boolean>`coalesce((
            select ${CATALOGUE_ORDER} > coalesce(b.posted_at, b.created_at)
              or (${CATALOGUE_ORDER} = coalesce(b.posted_at, b.created_at) and ${threads.shortcode} < b.shortcode)
            from threads b where b.id = ${newestId}), false)`
        : sql<boolean>`true`;
      return db
        .select({ row: threads, newer })
        .from(threads)
        .where(inArray(threads.id, [...ids]));
    },

    /** Forgets changes logged before `before` (no export state that old is trusted). */
    async prune(before: Date): Promise<void> {
      await db.delete(catalogueChanges).where(lt(catalogueChanges.at, before));
    },
  };
}
