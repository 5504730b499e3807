import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { mailSends, mailSubscribers } from '../db/schema-messages.ts';

export type MailSendRow = typeof mailSends.$inferSelect;

/** Why a claimed message was given up without a try: it might have gone already (decision 054). */
export const INTERRUPTED =
  'interrupted while sending (the process stopped or lost its lease); not tried again, so as never to send it twice';

/**
 * The outbox and send log of decision 054. A message is queued once per dedupe key, claimed by one
 * instance at a time with a lease, and ends sent or failed.
 */
export function createMailSendsRepository(db: Database) {
  return {
    /** Queues one message unless its key was queued before; true when this call queued it. */
    async enqueue(
      message: {
        kind: MailSendRow['kind'];
        dedupeKey: string;
        subscriberId?: string;
        digestId?: string;
        noticeAddressId?: string;
      },
      tx: Database = db,
    ): Promise<boolean> {
      const rows = await tx
        .insert(mailSends)
        .values(message)
        .onConflictDoNothing({ target: mailSends.dedupeKey })
        .returning({ id: mailSends.id });
      return rows.length > 0;
    },

    /** Queues the digest for every confirmed digest subscriber, each once; how many were queued now. */
    async enqueueDigest(digestId: string, tx: Database = db): Promise<number> {
      const rows = await tx.execute(sql`
        insert into ${mailSends} (kind, dedupe_key, subscriber_id, digest_id)
        select 'digest', 'digest:' || ${digestId} || ':' || s.id, s.id, ${digestId}
        from ${mailSubscribers} s
        where s.digest and s.confirmed_at is not null
        on conflict (dedupe_key) do nothing
        returning id`);
      return (rows as unknown as { rows: unknown[] }).rows.length;
    },

    /**
     * Claims up to `limit` due messages for `leaseMs`: they are 'sending' and belong to this caller
     * until marked. SKIP LOCKED lets instances claim side by side, never the same row.
     */
    async claim(limit: number, leaseMs: number, tx: Database = db): Promise<MailSendRow[]> {
      const result = await tx.execute(sql`
        update ${mailSends} set status = 'sending', attempts = attempts + 1,
          lease_until = now() + ${`${leaseMs} milliseconds`}::interval
        where id in (
          select id from ${mailSends}
          where status = 'queued' and next_attempt_at <= now()
          order by id limit ${limit}
          for update skip locked)
        returning id`);
      const ids = (result as unknown as { rows: { id: number | string }[] }).rows.map((row) =>
        Number(row.id),
      );
      if (ids.length === 0) return [];
      return tx
        .select()
        .from(mailSends)
        .where(sql`${mailSends.id} in ${ids}`)
        .orderBy(mailSends.id);
    },

    async markSent(id: number, messageId: string, tx: Database = db): Promise<void> {
      await tx
        .update(mailSends)
        .set({ status: 'sent', sentAt: sql`now()`, messageId, leaseUntil: null, lastError: null })
        .where(and(eq(mailSends.id, id), eq(mailSends.status, 'sending')));
    },

    /** A failed try: queued again at `retryAt`, or failed for good when `retryAt` is null. */
    async markFailedTry(id: number, error: string, retryAt: Date | null, tx: Database = db): Promise<void> {
      await tx
        .update(mailSends)
        .set(
          retryAt
            ? { status: 'queued', nextAttemptAt: retryAt, leaseUntil: null, lastError: error }
            : { status: 'failed', leaseUntil: null, lastError: error },
        )
        .where(and(eq(mailSends.id, id), eq(mailSends.status, 'sending')));
    },

    /** Gives up the messages whose sender's lease ran out mid-send (INTERRUPTED says why); how many. */
    async failInterrupted(tx: Database = db): Promise<number> {
      const rows = await tx
        .update(mailSends)
        .set({ status: 'failed', leaseUntil: null, lastError: INTERRUPTED })
        .where(and(eq(mailSends.status, 'sending'), lt(mailSends.leaseUntil, sql`now()`)))
        .returning({ id: mailSends.id });
      return rows.length;
    },

    /** Messages per status (the admin's summary and the tests). */
    async counts(tx: Database = db): Promise<Record<MailSendRow['status'], number>> {
      const rows = await tx
        .select({ status: mailSends.status, n: sql<number>`count(*)`.mapWith(Number) })
        .from(mailSends)
        .groupBy(mailSends.status);
      const counts = { queued: 0, sending: 0, sent: 0, failed: 0 };
      for (const row of rows) counts[row.status] = row.n;
      return counts;
    },
  };
}
export type MailSendsRepository = ReturnType<typeof createMailSendsRepository>;
