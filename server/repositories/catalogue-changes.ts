import { inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { catalogueChanges, threads } from '../db/schema.ts';
import { CATALOGUE_ORDER, type ThreadRow } from './threads.ts';

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

/** The change log the `threads` trigger keeps (migration 0009, decision 037). */
export function createCatalogueChangesRepository(db: Database) {
  return {
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
     * then), at most `limit` of them: more means "too many to follow one by one".
     */
    async changedSince(snapshot: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectDistinct({ threadId: catalogueChanges.threadId })
        .from(catalogueChanges)
        .where(
          sql`${catalogueChanges.xid} >= pg_snapshot_xmin(${snapshot}::pg_snapshot)
            and not pg_visible_in_snapshot(${catalogueChanges.xid}, ${snapshot}::pg_snapshot)`,
        )
        .limit(limit);
      return rows.map((row) => row.threadId);
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
