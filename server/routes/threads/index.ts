import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ThreadDecisionSchema } from '../../../contract/moderation.ts';
import type { Database } from '../../db/client.ts';
import { composeGeneratedPost } from '../../jobs/publish-generated-posts.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { createThreadsRepository, type ThreadDecision } from '../../repositories/threads.ts';
import { toReviewThread } from '../../views/thread-views.ts';
import { HttpError, parseBody } from '../http-errors.ts';

export interface ThreadRoutesOptions {
  db: Database;
  /** Called after an approval queued a generated post, so the publisher can start on it. */
  onPostQueued?: () => void;
}

/** The review queue (admins) and a member's own threads. */
const threadRoutes: FastifyPluginAsync<ThreadRoutesOptions> = async (app, { db, onPostQueued }) => {
  const threads = createThreadsRepository(db);
  const generated = createGeneratedPostsRepository(db);
  const audit = createAuditLogRepository(db);

  // Manual submissions are thread rows too (source manual_submission): one query merges both, and
  // the admin reads what the member wrote before deciding.
  app.get('/api/threads/pending-review', { config: { access: 'admin' } }, async () => ({
    threads: (await threads.listPending()).map(({ notes, ...row }) =>
      row.source === 'manual_submission' ? { ...toReviewThread(row), notes } : toReviewThread(row),
    ),
  }));

  app.get('/api/user/threads', { config: { access: 'user' } }, async (request) => {
    const user = await request.authUser();
    return { threads: (await threads.listOwn(user.id)).map(toReviewThread) };
  });

  /**
   * One decision per thread: conditional on pending, with its audit row (and, for an approved
   * manual submission, its generated post) in the same transaction.
   */
  const decide = (status: ThreadDecision) => async (request: FastifyRequest) => {
    const admin = await request.authUser();
    const { thread_id: threadId, reason } = parseBody(ThreadDecisionSchema, request.body);
    if (status === 'approved' && reason) throw new HttpError(400, 'Only a rejection takes a reason.');
    const queued = await db.transaction(async (tx) => {
      const decided = await threads.decide(threadId, status, tx, reason || null);
      if (!decided) {
        const existing = await threads.find(threadId, tx);
        throw existing
          ? new HttpError(409, `This thread was already decided (${existing.status}).`)
          : new HttpError(404, 'No such thread.');
      }
      const action = status === 'approved' ? 'thread.approve' : 'thread.reject';
      const details = reason ? { reason } : {};
      await audit.record({ actorUserId: admin.id, action, subject: threadId, details }, tx);
      if (status !== 'approved' || decided.source !== 'manual_submission') return false;
      const post = await generated.create(
        {
          threadId,
          content: composeGeneratedPost(decided),
          mediaUrl: decided.imageUrl,
          quotePostId: decided.mediaId,
        },
        tx,
      );
      return post !== null;
    });
    app.contentChanged(status === 'approved' ? 'threads' : 'decisions');
    if (queued) onPostQueued?.();
    return { success: true, status };
  };
  app.post('/api/threads/approve', { config: { access: 'admin' } }, decide('approved'));
  app.post('/api/threads/reject', { config: { access: 'admin' } }, decide('rejected'));
};

export default threadRoutes;
