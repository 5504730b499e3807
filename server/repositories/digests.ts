import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { gems, threads } from '../db/schema.ts';
import type { ThreadRow } from './threads.ts';
import { digests } from '../db/schema-messages.ts';

export type DigestRow = typeof digests.$inferSelect;

/** What a digest's mail shows of each thread (its page shows the whole card). */
export type DigestThread = Pick<
  ThreadRow,
  'id' | 'username' | 'authorName' | 'text' | 'permalink' | 'topicTag'
>;

/** The weekly digests (issue 22): their rows, and the selection of a week's best threads. */
export function createDigestsRepository(db: Database) {
  return {
    /** The digest's row, made (unpublished, no note) when it has none yet. */
    async ensure(id: string, year: number, week: number, tx: Database = db): Promise<DigestRow> {
      await tx.insert(digests).values({ id, year, week }).onConflictDoNothing({ target: digests.id });
      const row = await this.find(id, tx);
      if (!row) throw new Error(`digest ${id} was not stored`);
      return row;
    },

    async find(id: string, tx: Database = db): Promise<DigestRow | null> {
      const [row] = await tx.select().from(digests).where(eq(digests.id, id));
      return row ?? null;
    },

    /**
     * The ids of the week's best approved threads: approved within [start, end), most gems first,
     * then newest; without `excluded` (the admin's trim); at most `limit`.
     */
    async select(
      range: { start: Date; end: Date },
      excluded: readonly string[],
      limit: number,
      tx: Database = db,
    ): Promise<string[]> {
      const gemCount = count(gems.threadId);
      const rows = await tx
        .select({ id: threads.id })
        .from(threads)
        .leftJoin(gems, eq(gems.threadId, threads.id))
        .where(
          and(
            eq(threads.status, 'approved'),
            gte(threads.decidedAt, range.start),
            lt(threads.decidedAt, range.end),
            ...(excluded.length > 0 ? [notInArray(threads.id, [...excluded])] : []),
          ),
        )
        .groupBy(threads.id)
        .orderBy(desc(gemCount), sql`coalesce(${threads.postedAt}, ${threads.createdAt}) desc`, threads.id)
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** The approved threads among `ids`, in the order of `ids` (a digest's list, as frozen). */
    async threadsOf(ids: readonly string[], tx: Database = db): Promise<ThreadRow[]> {
      if (ids.length === 0) return [];
      const rows = await tx
        .select()
        .from(threads)
        .where(and(inArray(threads.id, [...ids]), eq(threads.status, 'approved')));
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** Every published digest, newest first (a year adds 52: the site renders them all). */
    async listPublished(tx: Database = db): Promise<DigestRow[]> {
      return tx
        .select()
        .from(digests)
        .where(isNotNull(digests.publishedAt))
        .orderBy(desc(digests.year), desc(digests.week));
    },

    /** The gems each of `ids` has (a thread without any is left out). */
    async gemCounts(ids: readonly string[], tx: Database = db): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: gems.threadId, n: count() })
        .from(gems)
        .where(inArray(gems.threadId, [...ids]))
        .groupBy(gems.threadId);
      return new Map(rows.map((row) => [row.id, row.n]));
    },

    /**
     * Leaves `threadId` out of an unpublished digest, or puts it back: the row as it is now, or null
     * once it is published. One statement, so two admins trimming at once both count.
     */
    async setExcluded(
      id: string,
      threadId: string,
      excluded: boolean,
      tx: Database = db,
    ): Promise<DigestRow | null> {
      const list = excluded
        ? sql`array_append(array_remove(${digests.excludedThreadIds}, ${threadId}::uuid), ${threadId}::uuid)`
        : sql`array_remove(${digests.excludedThreadIds}, ${threadId}::uuid)`;
      const rows = await tx
        .update(digests)
        .set({ excludedThreadIds: list, updatedAt: sql`now()` })
        .where(and(eq(digests.id, id), isNull(digests.publishedAt)))
        .returning();
      return rows[0] ?? null;
    },

    /** Sets an unpublished digest's editor's note: the row as it is now, or null once it is published. */
    async setNote(id: string, note: string, tx: Database = db): Promise<DigestRow | null> {
      const rows = await tx
        .update(digests)
        .set({ note, updatedAt: sql`now()` })
        .where(and(eq(digests.id, id), isNull(digests.publishedAt)))
        .returning();
      return rows[0] ?? null;
    },

    /**
     * Publishes the digest with `threadIds`, once: false when it was published already (by another
     * instance, or an earlier run), which then changes nothing.
     */
    async publish(id: string, threadIds: readonly string[], tx: Database = db): Promise<boolean> {
      const rows = await tx
        .update(digests)
        .set({ threadIds: [...threadIds], publishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(digests.id, id), isNull(digests.publishedAt)))
        .returning({ id: digests.id });
      return rows.length > 0;
    },
  };
}
export type DigestsRepository = ReturnType<typeof createDigestsRepository>;
