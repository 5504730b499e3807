import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { noticeMailAddresses } from '../db/schema-messages.ts';

export type NoticeAddressRow = typeof noticeMailAddresses.$inferSelect;

/**
 * Members' addresses for their notices (decision 058): one per member, mailed only once confirmed
 * and while enabled, deleted (not kept) when removed or unsubscribed.
 */
export function createNoticeMailAddressesRepository(db: Database) {
  return {
    async ofUser(userId: string, tx: Database = db): Promise<NoticeAddressRow | null> {
      const [row] = await tx.select().from(noticeMailAddresses).where(eq(noticeMailAddresses.userId, userId));
      return row ?? null;
    },

    async find(id: string, tx: Database = db): Promise<NoticeAddressRow | null> {
      const [row] = await tx.select().from(noticeMailAddresses).where(eq(noticeMailAddresses.id, id));
      return row ?? null;
    },

    /**
     * Stores the member's address (already lower-cased) and choice, in the caller's transaction. The
     * same address keeps its id and confirmation; another one replaces it with a row of id `id`,
     * unconfirmed, so links mailed for the old address stop working. Returns the row.
     */
    async save(
      { id, userId, email, enabled }: { id: string; userId: string; email: string; enabled: boolean },
      tx: Database = db,
    ): Promise<NoticeAddressRow> {
      // Another address is a new row: the old one's confirmation and links go with it (its log rows
      // keep when, not to whom, as the key is `on delete set null`).
      await tx
        .delete(noticeMailAddresses)
        .where(and(eq(noticeMailAddresses.userId, userId), ne(noticeMailAddresses.email, email)));
      const [row] = await tx
        .insert(noticeMailAddresses)
        .values({ id, userId, email, enabled })
        .onConflictDoUpdate({ target: noticeMailAddresses.userId, set: { enabled } })
        .returning();
      if (!row) throw new Error('the notice mail address was not stored');
      return row;
    },

    /** Confirms the address (double opt-in); again keeps the first time. Null: no such address. */
    async confirm(id: string, tx: Database = db): Promise<NoticeAddressRow | null> {
      const [row] = await tx
        .update(noticeMailAddresses)
        .set({ confirmedAt: sql`coalesce(${noticeMailAddresses.confirmedAt}, now())` })
        .where(eq(noticeMailAddresses.id, id))
        .returning();
      return row ?? null;
    },

    /** Deletes the member's address; true when there was one. */
    async removeOfUser(userId: string, tx: Database = db): Promise<boolean> {
      const gone = await tx
        .delete(noticeMailAddresses)
        .where(eq(noticeMailAddresses.userId, userId))
        .returning({ id: noticeMailAddresses.id });
      return gone.length > 0;
    },

    /** Deletes the address behind a mailed unsubscribe link; true when it was still there. */
    async remove(id: string, tx: Database = db): Promise<boolean> {
      const gone = await tx
        .delete(noticeMailAddresses)
        .where(eq(noticeMailAddresses.id, id))
        .returning({ id: noticeMailAddresses.id });
      return gone.length > 0;
    },
  };
}
export type NoticeMailAddressesRepository = ReturnType<typeof createNoticeMailAddressesRepository>;
