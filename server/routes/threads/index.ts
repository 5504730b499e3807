import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ThreadDecisionResultSchema, ThreadDecisionSchema } from '../../../contract/moderation.ts';
import { OwnThreadsSchema } from '../../../contract/review.ts';
import type { z } from '../../../contract/zod.ts';
import type { Database } from '../../db/client.ts';
import { createThreadsRepository, type ThreadDecision } from '../../repositories/threads.ts';
import { toReviewThread } from '../../views/thread-views.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { createThreadDecider } from './decide-thread.ts';
import { registerReviewQueue } from './review-queue.ts';
import { registerUndoDecisions } from './undo-decisions.ts';

export interface ThreadRoutesOptions {
  db: Database;
  /** Called after an approval queued a generated post, so the publisher can start on it. */
  onPostQueued?: () => void;
}

/** The review queue (admins) and a member's own threads. */
const threadRoutes: FastifyPluginAsync<ThreadRoutesOptions> = async (server, { db, onPostQueued }) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const threads = createThreadsRepository(db);
  const decideThread = createThreadDecider(db);

  /** What committed decisions tell the rest of the server: once per request, however many threads. */
  const afterDecisions = (status: ThreadDecision, queuedPosts: boolean) => {
    // A rejection changes no page, only the moderation log (and its cache).
    app.contentChanged(status === 'approved' ? 'threads' : 'decisions');
    if (queuedPosts) onPostQueued?.();
  };

  // Manual submissions are thread rows too (source manual_submission): one query merges both, and
  // the admin reads what the member wrote before deciding.
  registerReviewQueue(app, { db, decideThread, afterDecisions });
  registerUndoDecisions(app, { db });

  const own = { config: { access: 'user' as const }, schema: { response: { 200: OwnThreadsSchema } } };
  app.get('/api/user/threads', own, async (request) => {
    const user = await request.authUser();
    // Every status: the dashboard says how many are in the catalogue (contract/review.ts).
    return {
      threads: (await threads.listOwn(user.id)).map((row) => ({
        ...toReviewThread(row),
        status: row.status,
      })),
    };
  });

  /** One decision per thread: a second one gets 409 (the shared decider is conditional on pending). */
  type ThreadDecisionBody = z.output<typeof ThreadDecisionSchema>;
  const decision = { body: ThreadDecisionSchema, response: { 200: ThreadDecisionResultSchema } };
  const decide =
    (status: ThreadDecision) =>
    async (request: { authUser: FastifyRequest['authUser']; body: ThreadDecisionBody }) => {
      const admin = await request.authUser();
      const { thread_id: threadId, reason } = request.body;
      if (status === 'approved' && reason) throw new HttpError(400, 'Only a rejection takes a reason.');
      const done = await db.transaction(async (tx) => {
        const decided = await decideThread(
          { threadId, status, reason: reason || null, actorUserId: admin.id },
          tx,
        );
        if (!decided) {
          const existing = await threads.find(threadId, tx);
          throw existing
            ? new HttpError(409, `This thread was already decided (${existing.status}).`)
            : new HttpError(404, 'No such thread.');
        }
        return decided;
      });
      afterDecisions(status, done.queued);
      // The reason as stored (trimmed, NFC): what the member and the public log will read.
      return { success: true as const, status, reason: done.thread.decisionReason };
    };
  app.post('/api/threads/approve', { config: { access: 'admin' }, schema: decision }, decide('approved'));
  app.post('/api/threads/reject', { config: { access: 'admin' }, schema: decision }, decide('rejected'));
};

export default threadRoutes;
