import { and, count, desc, eq, getTableColumns, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { gems, threads, users } from '../db/schema.ts';
import type { ThreadRow } from './threads.ts';

/** What saving a gem did. */
export type SaveOutcome = 'saved' | 'already-saved' | 'missing' | 'not-approved';

/** Only approved threads show as gems: a hidden one keeps its row and comes back with its thread. */
const visible = eq(threads.status, 'approved');

/** Members' saved threads (gems). Every read leaves out threads that are not approved. */
export function createGemsRepository(db: Database) {
  return {
    /**
     * Locks the member's row until the transaction ends: two saves at once then count one after the
     * other, so neither passes the cap on the other's uncommitted row.
     */
    async lockMember(userId: string, tx: Database): Promise<void> {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    },

    /** Saves an approved thread as the member's gem; saving it again changes nothing. */
    async save(userId: string, threadId: string, tx: Database = db): Promise<SaveOutcome> {
      const [thread] = await tx
        .select({ status: threads.status })
        .from(threads)
        .where(eq(threads.id, threadId));
      if (!thread) return 'missing';
      if (thread.status !== 'approved') return 'not-approved';
      const inserted = await tx
        .insert(gems)
        .values({ userId, threadId })
        .onConflictDoNothing()
        .returning({ threadId: gems.threadId });
      return inserted.length > 0 ? 'saved' : 'already-saved';
    },

    /** Removes a gem, whatever its thread's status; true when there was one. */
    async remove(userId: string, threadId: string, tx: Database = db): Promise<boolean> {
      const removed = await tx
        .delete(gems)
        .where(and(eq(gems.userId, userId), eq(gems.threadId, threadId)))
        .returning({ threadId: gems.threadId });
      return removed.length > 0;
    },

    /** Drops every gem saved on a thread at or after `since` (an undone approval); whose they were. */
    async dropSavedSince(threadId: string, since: Date, tx: Database = db): Promise<string[]> {
      const dropped = await tx
        .delete(gems)
        .where(and(eq(gems.threadId, threadId), gte(gems.createdAt, since)))
        .returning({ userId: gems.userId });
      return dropped.map((row) => row.userId);
    },

    /** Every member who keeps this thread as a gem. */
    async holdersOf(threadId: string, tx: Database = db): Promise<string[]> {
      const rows = await tx.select({ userId: gems.userId }).from(gems).where(eq(gems.threadId, threadId));
      return rows.map((row) => row.userId);
    },

    /** Every gem row of the member, hidden threads included: what the per-member cap counts. */
    async countStored(userId: string, tx: Database = db): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(gems).where(eq(gems.userId, userId));
      return row?.n ?? 0;
    },

    /** The member's visible gems' thread ids, newest saved first. */
    async ids(userId: string, tx: Database = db): Promise<string[]> {
      const rows = await tx
        .select({ id: gems.threadId })
        .from(gems)
        .innerJoin(threads, eq(threads.id, gems.threadId))
        .where(and(eq(gems.userId, userId), visible))
        .orderBy(desc(gems.createdAt), desc(gems.threadId));
      return rows.map((row) => row.id);
    },

    /** Each member's visible gems, newest saved first, at most `limit` per member. */
    async newestPerMember(
      userIds: readonly string[],
      limit: number,
      tx: Database = db,
    ): Promise<Map<string, ThreadRow[]>> {
      const byMember = new Map<string, ThreadRow[]>();
      if (userIds.length === 0) return byMember;
      const ranked = tx
        .select({
          ...getTableColumns(threads),
          memberId: sql<string>`${gems.userId}`.as('member_id'),
          rank: sql<number>`row_number() over (partition by ${gems.userId} order by ${gems.createdAt} desc, ${gems.threadId} desc)`.as(
            'rank',
          ),
        })
        .from(gems)
        .innerJoin(threads, eq(threads.id, gems.threadId))
        .where(and(inArray(gems.userId, [...userIds]), visible))
        .as('ranked');
      const rows = await tx
        .select()
        .from(ranked)
        .where(lte(ranked.rank, limit))
        .orderBy(ranked.memberId, ranked.rank);
      // Each row keeps its rank beside the thread's columns: harmless to the card mappers.
      for (const { memberId, ...thread } of rows) {
        const list = byMember.get(memberId) ?? [];
        list.push(thread);
        byMember.set(memberId, list);
      }
      return byMember;
    },

    /** How many visible gems each member has (members without any are absent). */
    async countPerMember(userIds: readonly string[], tx: Database = db): Promise<Map<string, number>> {
      if (userIds.length === 0) return new Map();
      const rows = await tx
        .select({ userId: gems.userId, n: count() })
        .from(gems)
        .innerJoin(threads, eq(threads.id, gems.threadId))
        .where(and(inArray(gems.userId, [...userIds]), visible))
        .groupBy(gems.userId);
      return new Map(rows.map((row) => [row.userId, row.n]));
    },
  };
}
export type GemsRepository = ReturnType<typeof createGemsRepository>;
