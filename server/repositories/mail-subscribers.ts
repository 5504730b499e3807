import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { mailSubscribers } from '../db/schema-messages.ts';

export type SubscriberRow = typeof mailSubscribers.$inferSelect;

/**
 * Addresses that asked for mail (decision 054). An address is kept only while it asks for
 * something: the row goes when it wants neither the digest nor notices.
 */
export function createMailSubscribersRepository(db: Database) {
  return {
    /**
     * Asks for the digest at `email` (already lower-cased), one row per address whatever its case:
     * a known address keeps its id and its confirmation. Returns the row.
     */
    async subscribeDigest(email: string, tx: Database = db): Promise<SubscriberRow> {
      // The unique index is on lower(email): the conflict target must name that expression.
      const result = await tx.execute(sql`
        insert into ${mailSubscribers} (email, digest) values (${email}, true)
        on conflict (lower(email)) do update set digest = true
        returning id`);
      const id = (result as unknown as { rows: { id: string }[] }).rows[0]?.id;
      const row = id ? await this.find(id, tx) : null;
      if (!row) throw new Error('the subscription was not stored');
      return row;
    },

    async find(id: string, tx: Database = db): Promise<SubscriberRow | null> {
      const [row] = await tx.select().from(mailSubscribers).where(eq(mailSubscribers.id, id));
      return row ?? null;
    },

    /** Confirms the address (double opt-in); confirming again keeps the first time. Null: no such row. */
    async confirm(id: string, tx: Database = db): Promise<SubscriberRow | null> {
      const [row] = await tx
        .update(mailSubscribers)
        .set({ confirmedAt: sql`coalesce(${mailSubscribers.confirmedAt}, now())` })
        .where(eq(mailSubscribers.id, id))
        .returning();
      return row ?? null;
    },

    /**
     * Stops the digest for the address, and deletes the row when it asks for nothing else. True when
     * there was a subscription to stop.
     */
    async unsubscribeDigest(id: string, tx: Database = db): Promise<boolean> {
      const stopped = await tx
        .update(mailSubscribers)
        .set({ digest: false })
        .where(and(eq(mailSubscribers.id, id), eq(mailSubscribers.digest, true)))
        .returning({ id: mailSubscribers.id });
      await tx
        .delete(mailSubscribers)
        .where(
          and(
            eq(mailSubscribers.id, id),
            eq(mailSubscribers.digest, false),
            eq(mailSubscribers.notices, false),
          ),
        );
      return stopped.length > 0;
    },

    /** How many confirmed addresses receive the digest (the privacy page and the admin say it). */
    async digestCount(tx: Database = db): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(mailSubscribers)
        .where(and(eq(mailSubscribers.digest, true), sql`${mailSubscribers.confirmedAt} is not null`));
      return row?.n ?? 0;
    },
  };
}
export type MailSubscribersRepository = ReturnType<typeof createMailSubscribersRepository>;
