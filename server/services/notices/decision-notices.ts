import { noticeExcerpt, type GemRemovalCause, type NoticeDetails } from '../../../contract/notices.ts';
import type { Database } from '../../db/client.ts';
import { createGemsRepository } from '../../repositories/gems.ts';
import { createManualSubmissionsRepository } from '../../repositories/manual-submissions.ts';
import { createMailSendsRepository } from '../../repositories/mail-sends.ts';
import { createNoticesRepository, type NewNotice } from '../../repositories/notices.ts';
import type { ThreadRow } from '../../repositories/threads.ts';

/** What a notice about a thread keeps of it, so it reads the same once the thread is gone. */
function threadDetails(thread: ThreadRow): NoticeDetails {
  return { permalink: thread.permalink, excerpt: noticeExcerpt(thread.text) };
}

/**
 * Writes the notices a decision owes its members (issue 22), always inside the decision's own
 * transaction (`tx`): a decision that rolls back leaves no notice, and none is lost once it commits.
 */
export function createDecisionNotices(db: Database) {
  const notices = createNoticesRepository(db);
  const submissions = createManualSubmissionsRepository(db);
  const gems = createGemsRepository(db);
  const mail = createMailSendsRepository(db);
  /** Writes the notices and, in the same transaction, queues their mail where it was chosen (decision 058). */
  const write = async (rows: readonly NewNotice[], tx: Database): Promise<void> => {
    await mail.enqueueNotices(await notices.add(rows, tx), tx);
  };
  return {
    /** The member whose invite request was approved or rejected (invites take no reason). */
    async inviteDecided(userId: string, status: 'approved' | 'rejected', tx: Database): Promise<void> {
      const kind = status === 'approved' ? 'invite_approved' : 'invite_rejected';
      await write([{ userId, kind, threadId: null, details: {} }], tx);
    },

    /** Whoever submitted this thread by hand: approved, or declined with the reason as decided. */
    async threadDecided(thread: ThreadRow, tx: Database): Promise<void> {
      if (thread.source !== 'manual_submission') return;
      if (thread.status !== 'approved' && thread.status !== 'rejected') return;
      const kind = thread.status === 'approved' ? 'submission_approved' : 'submission_rejected';
      const details = { ...threadDetails(thread), reason: thread.decisionReason };
      const members = await submissions.submittersOf(thread.id, tx);
      await write(
        members.map((userId) => ({ userId, kind, threadId: thread.id, details })),
        tx,
      );
    },

    /**
     * Takes back the submission notices of an undone decision: deleted, as if it was never made, with
     * their mail while it is still queued (one being sent cannot be called back).
     */
    async decisionUndone(threadId: string, tx: Database): Promise<number> {
      const kinds = ['submission_approved', 'submission_rejected'] as const;
      await mail.dropQueuedAbout(threadId, kinds, tx);
      return (await notices.withdraw(threadId, kinds, tx)).length;
    },

    /**
     * Every member whose gem this thread was, when it leaves the catalogue. Call it before the gems
     * themselves are dropped (an undone approval), or with `members` when they already were.
     */
    async gemsLeft(
      thread: ThreadRow,
      cause: GemRemovalCause,
      tx: Database,
      members?: readonly string[],
    ): Promise<void> {
      const holders = members ?? (await gems.holdersOf(thread.id, tx));
      const details = { ...threadDetails(thread), cause };
      await write(
        holders.map((userId) => ({ userId, kind: 'gem_removed' as const, threadId: thread.id, details })),
        tx,
      );
    },
  };
}
export type DecisionNotices = ReturnType<typeof createDecisionNotices>;
