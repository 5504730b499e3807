import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { NoticeKind } from '../../contract/notices.ts';
import { mailSends, mailSubscribers, noticeMailAddresses, notices } from '../db/schema-messages.ts';

export type MailSendRow = typeof mailSends.$inferSelect;

/** Why a claimed message was given up without a try: it might have gone already (decision 054). */
export const INTERRUPTED =
  'interrupted while sending (the process stopped or lost its lease); not tried again, so as never to send it twice';

/** Why a notice address's mail was given up without a try: its address was gone when it came due. */
export const NOTICE_ADDRESS_GONE = 'the address was removed or changed before it was sent';

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

    /**
     * Queues a notice address's confirmation (decision 058) unless its key was queued before. A
     * confirmation of that key that never went out, because the address was replaced before it was
     * sent (still queued with no address, or given up with NOTICE_ADDRESS_GONE), goes to this address
     * row instead: it is still the address's one confirmation of the day. True when one is queued now.
     */
    async enqueueNoticeConfirmation(
      dedupeKey: string,
      noticeAddressId: string,
      tx: Database = db,
    ): Promise<boolean> {
      const failed = sql`${mailSends.status} = 'failed'`;
      const neverSent = sql`(${mailSends.status} = 'queued' and ${mailSends.noticeAddressId} is null)
        or (${failed} and ${mailSends.lastError} = ${NOTICE_ADDRESS_GONE})`;
      const rows = await tx
        .insert(mailSends)
        .values({ kind: 'notice_confirm', dedupeKey, noticeAddressId })
        .onConflictDoUpdate({
          target: mailSends.dedupeKey,
          // One given up was claimed once and sent nothing: its tries start again, now. One still
          // queued keeps its tries and its wait.
          set: {
            noticeAddressId,
            status: 'queued',
            attempts: sql`case when ${failed} then 0 else ${mailSends.attempts} end`,
            nextAttemptAt: sql`case when ${failed} then now() else ${mailSends.nextAttemptAt} end`,
            lastError: sql`case when ${failed} then null else ${mailSends.lastError} end`,
          },
          setWhere: neverSent,
        })
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

    /**
     * Queues a mail for each of these new notices whose member has a confirmed address with the choice
     * on, once per notice (`notice:<id>`), in the caller's transaction: the decision's (decision 056).
     */
    async enqueueNotices(noticeIds: readonly number[], tx: Database = db): Promise<number> {
      if (noticeIds.length === 0) return 0;
      const rows = await tx.execute(sql`
        insert into ${mailSends} (kind, dedupe_key, notice_id, notice_address_id)
        select 'notice', 'notice:' || n.id, n.id, a.id
        from ${notices} n join ${noticeMailAddresses} a on a.user_id = n.user_id
        where n.id in ${noticeIds} and a.enabled and a.confirmed_at is not null
        on conflict (dedupe_key) do nothing
        returning id`);
      return (rows as unknown as { rows: unknown[] }).rows.length;
    },

    /**
     * Deletes the still-queued mails of the notices of these kinds about a thread: call it before an
     * Undo deletes the notices themselves, whose deletion would leave the mails without a notice.
     */
    async dropQueuedAbout(
      threadId: string,
      kinds: readonly NoticeKind[],
      tx: Database = db,
    ): Promise<number> {
      const gone = await tx.execute(sql`
        delete from ${mailSends} where status = 'queued' and notice_id in (
          select id from ${notices} where thread_id = ${threadId} and kind in ${[...kinds]})
        returning id`);
      return (gone as unknown as { rows: unknown[] }).rows.length;
    },
  };
}
export type MailSendsRepository = ReturnType<typeof createMailSendsRepository>;
