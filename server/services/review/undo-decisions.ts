import { UNDO_WINDOW_SECONDS } from '../../../contract/review-undo.ts';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../../http/http-error.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createGemsRepository } from '../../repositories/gems.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { createThreadDecisionsRepository, type DecisionToUndo } from '../../repositories/thread-decisions.ts';
import type { ContentChange } from '../content-change.ts';
import { createDecisionNotices } from '../notices/decision-notices.ts';

/** The audit actions of a decision and of its undo (decision 047). */
const DECISION_ACTIONS = ['thread.approve', 'thread.reject', 'thread.undo'] as const;
const ACTION_OF = { approved: 'thread.approve', rejected: 'thread.reject' } as const;

/** What an undo did, for the answer and for what the rest of the server must hear after the commit. */
export interface UndoOutcome {
  undone: string[];
  changes: ContentChange[];
  /** Generated posts dropped with their approval. */
  droppedPosts: number;
}

/**
 * Takes back an admin's own recent decisions on these threads, all of them or none (decision 047),
 * in one transaction: each thread returns to pending, an approved one leaves the catalogue (the
 * change log reads it as a removal), its generated post not yet published and the gems saved on it
 * since are dropped (their members told in a notice), the submitter's notice of the decision
 * is deleted (decision 056), and the audit log gains a 'thread.undo' entry. Refused with 404 or 409.
 */
export function createDecisionUndo(db: Database) {
  const decisions = createThreadDecisionsRepository(db);
  const audit = createAuditLogRepository(db);
  const posts = createGeneratedPostsRepository(db);
  const gems = createGemsRepository(db);
  const notices = createDecisionNotices(db);

  /** Why this thread's decision cannot be undone by this admin, or null when it can. */
  async function refusal(found: DecisionToUndo, actorUserId: string, tx: Database): Promise<string | null> {
    const { thread, withinWindow } = found;
    if (thread.status !== 'approved' && thread.status !== 'rejected')
      return `it is ${thread.status}, not decided`;
    // The decision standing now must be this admin's own: after an undo and a new decision by
    // someone else, an Undo still on screen would take back what it never showed.
    const last = await audit.latest(thread.id, DECISION_ACTIONS, tx);
    if (!last || last.action !== ACTION_OF[thread.status] || last.actorUserId !== actorUserId)
      return 'another admin decided it since';
    if (!withinWindow) return `it was decided more than ${UNDO_WINDOW_SECONDS} seconds ago`;
    const post = await posts.lockForThread(thread.id, tx);
    // A container made means publishing has begun: dropping the row now could leave a post on
    // Threads that nothing here knows of.
    if (post && (post.status === 'published' || post.creationId))
      return 'its generated post was already published';
    return null;
  }

  return async function undoDecisions(ids: readonly string[], actorUserId: string): Promise<UndoOutcome> {
    return db.transaction(async (tx) => {
      const found = await decisions.lockForUndo(ids, UNDO_WINDOW_SECONDS, tx);
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0)
        throw new HttpError(404, `No such thread: ${missing.join(', ')}. Nothing was undone.`);
      const refused: string[] = [];
      for (const id of ids) {
        const why = await refusal(found.get(id) as DecisionToUndo, actorUserId, tx);
        if (why) refused.push(`${id} (${why})`);
      }
      if (refused.length > 0)
        throw new HttpError(
          409,
          `This decision can no longer be undone: ${refused.join('; ')}. Nothing was undone.`,
        );

      const changes = new Set<ContentChange>();
      let droppedPosts = 0;
      for (const id of [...ids].sort()) {
        const { thread } = found.get(id) as DecisionToUndo;
        await decisions.undecide(id, tx);
        const approved = thread.status === 'approved';
        const post = approved && (await posts.dropUnpublished(id, tx));
        const gemsDroppedFrom =
          approved && thread.decidedAt ? await gems.dropSavedSince(id, thread.decidedAt, tx) : [];
        const gemsDropped = gemsDroppedFrom.length;
        // The submitter's notice goes with the decision (decision 056); a member whose gem went
        // with the approval is told, like any gem whose thread left.
        await notices.decisionUndone(id, tx);
        if (gemsDropped > 0) await notices.gemsLeft(thread, 'approval_undone', tx, gemsDroppedFrom);
        if (post) droppedPosts += 1;
        // An approval was on the site; a rejection only on the moderation log.
        changes.add(approved ? 'threads' : 'decisions');
        if (gemsDropped > 0) changes.add('profiles');
        await audit.record(
          {
            actorUserId,
            action: 'thread.undo',
            subject: id,
            details: {
              undid: ACTION_OF[thread.status as 'approved' | 'rejected'],
              ...(thread.decisionReason ? { reason: thread.decisionReason } : {}),
              gems_dropped: gemsDropped,
              generated_post_dropped: post,
            },
          },
          tx,
        );
      }
      return { undone: [...ids], changes: [...changes], droppedPosts };
    });
  };
}
