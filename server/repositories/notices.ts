import { and, count, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { NoticeDetails, NoticeKind } from '../../contract/notices.ts';
import type { Database } from '../db/client.ts';
import { notices } from '../db/schema-messages.ts';

export type NoticeRow = typeof notices.$inferSelect;

/** One notice to write: to whom, what about, and what it shows. */
export interface NewNotice {
  userId: string;
  kind: NoticeKind;
  threadId: string | null;
  details: NoticeDetails;
}

/** Members' notices (issue 22): written with the decision that causes them, read by their member only. */
export function createNoticesRepository(db: Database) {
  return {
    /** Writes these notices (none is fine); their ids. */
    async add(rows: readonly NewNotice[], tx: Database = db): Promise<number[]> {
      if (rows.length === 0) return [];
      const written = await tx
        .insert(notices)
        .values(
          rows.map((row) => ({
            userId: row.userId,
            kind: row.kind,
            threadId: row.threadId,
            details: { ...row.details },
          })),
        )
        .returning({ id: notices.id });
      return written.map((row) => row.id);
    },

    async find(id: number, tx: Database = db): Promise<NoticeRow | null> {
      const [row] = await tx.select().from(notices).where(eq(notices.id, id));
      return row ?? null;
    },

    /** The member's notices newest first, older than `before` when given, at most `limit`. */
    async page(
      userId: string,
      before: number | null,
      limit: number,
      tx: Database = db,
    ): Promise<NoticeRow[]> {
      return tx
        .select()
        .from(notices)
        .where(and(eq(notices.userId, userId), before === null ? undefined : lt(notices.id, before)))
        .orderBy(desc(notices.id))
        .limit(limit);
    },

    /** How many of the member's notices are unread. */
    async unreadCount(userId: string, tx: Database = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(notices)
        .where(and(eq(notices.userId, userId), isNull(notices.readAt)));
      return row?.n ?? 0;
    },

    /** Marks the member's notice `id` read, or with `upTo` every one up to it; others' are untouched. */
    async markRead(
      userId: string,
      which: { id: number } | { upTo: number },
      tx: Database = db,
    ): Promise<void> {
      const range = 'id' in which ? eq(notices.id, which.id) : lte(notices.id, which.upTo);
      await tx
        .update(notices)
        .set({ readAt: sql`now()` })
        .where(and(eq(notices.userId, userId), isNull(notices.readAt), range));
    },

    /** Deletes the notices of these kinds about a thread (an undone decision); their ids. */
    async withdraw(threadId: string, kinds: readonly NoticeKind[], tx: Database = db): Promise<number[]> {
      const gone = await tx
        .delete(notices)
        .where(and(eq(notices.threadId, threadId), inArray(notices.kind, [...kinds])))
        .returning({ id: notices.id });
      return gone.map((row) => row.id);
    },
  };
}
export type NoticesRepository = ReturnType<typeof createNoticesRepository>;
