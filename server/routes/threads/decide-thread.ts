import type { Database } from '../../db/client.ts';
import { composeGeneratedPost } from '../../services/publishing/publish-generated-posts.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { createThreadsRepository, type ThreadDecision, type ThreadRow } from '../../repositories/threads.ts';
import { createDecisionNotices } from '../../services/notices/decision-notices.ts';

export interface DecisionInput {
  threadId: string;
  status: ThreadDecision;
  /** Only for a rejection; already trimmed. */
  reason: string | null;
  actorUserId: string;
}

/**
 * Decides one thread inside the caller's transaction, the way every decision is made (one thread
 * or fifty): conditional on pending, with its audit row, the submitter's notice (issue 22) and,
 * for an approved manual submission, the generated post the curator's account will publish. Null when the thread was not pending.
 */
export function createThreadDecider(db: Database) {
  const threads = createThreadsRepository(db);
  const generated = createGeneratedPostsRepository(db);
  const audit = createAuditLogRepository(db);
  const notices = createDecisionNotices(db);
  return async function decideThread(
    { threadId, status, reason, actorUserId }: DecisionInput,
    tx: Database,
  ): Promise<{ thread: ThreadRow; queued: boolean } | null> {
    const decided = await threads.decide(threadId, status, tx, reason);
    if (!decided) return null;
    const action = status === 'approved' ? 'thread.approve' : 'thread.reject';
    const details = reason ? { reason } : {};
    await audit.record({ actorUserId, action, subject: threadId, details }, tx);
    await notices.threadDecided(decided, tx);
    if (status !== 'approved' || decided.source !== 'manual_submission')
      return { thread: decided, queued: false };
    const post = await generated.create(
      {
        threadId,
        content: composeGeneratedPost(decided),
        mediaUrl: decided.imageUrl,
        quotePostId: decided.mediaId,
      },
      tx,
    );
    return { thread: decided, queued: post !== null };
  };
}
export type ThreadDecider = ReturnType<typeof createThreadDecider>;
