import { and, asc, count, desc, eq, gt, min, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { manualSubmissions, threads } from '../db/schema.ts';
import type { ThreadRow } from './threads.ts';

export type ManualSubmissionRow = typeof manualSubmissions.$inferSelect;
export type NewManualSubmission = typeof manualSubmissions.$inferInsert;

/** Thread links members submitted, each tied to the thread row it created. */
export function createManualSubmissionsRepository(db: Database) {
  return {
    async create(row: NewManualSubmission, tx: Database = db): Promise<ManualSubmissionRow> {
      const [created] = await tx.insert(manualSubmissions).values(row).returning();
      if (!created) throw new Error('submission insert returned no row');
      return created;
    },

    /** A member's submissions with their threads, newest first. */
    async listForUser(
      userId: string,
      tx: Database = db,
    ): Promise<{ submission: ManualSubmissionRow; thread: ThreadRow }[]> {
      return tx
        .select({ submission: manualSubmissions, thread: threads })
        .from(manualSubmissions)
        .innerJoin(threads, eq(threads.id, manualSubmissions.threadId))
        .where(eq(manualSubmissions.userId, userId))
        .orderBy(desc(manualSubmissions.createdAt), asc(manualSubmissions.id));
    },

    /** How many submissions the member made after `since`, and when the oldest of them was made. */
    async countSince(
      userId: string,
      since: Date,
      tx: Database = db,
    ): Promise<{ count: number; oldest: Date | null }> {
      const [row] = await tx
        .select({ count: count(), oldest: min(manualSubmissions.createdAt) })
        .from(manualSubmissions)
        .where(and(eq(manualSubmissions.userId, userId), gt(manualSubmissions.createdAt, since)));
      return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
    },

    /** Every member who submitted this thread by hand (a link may come from more than one). */
    async submittersOf(threadId: string, tx: Database = db): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ userId: manualSubmissions.userId })
        .from(manualSubmissions)
        .where(eq(manualSubmissions.threadId, threadId));
      return rows.map((row) => row.userId);
    },

    /**
     * Serialises one member's submissions until the transaction ends, so two at once cannot both
     * pass the hourly limit.
     */
    async lockMember(userId: string, tx: Database): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`submissions:${userId}`}))`);
    },
  };
}
export type ManualSubmissionsRepository = ReturnType<typeof createManualSubmissionsRepository>;
