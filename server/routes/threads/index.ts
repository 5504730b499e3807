import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { avatarFor } from '../../../contract/avatar.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import type { Database } from '../../db/client.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createThreadsRepository, type ThreadDecision, type ThreadRow } from '../../repositories/threads.ts';
import { HttpError, parseBody } from '../http-errors.ts';

const ThreadDecisionSchema = z.object({ thread_id: z.uuid('thread_id must be a thread id') }).strict();

/** A stored thread as the dashboard's cards show it. */
export function toReviewThread(row: ThreadRow): ReviewThread {
  return {
    id: row.id,
    handle: `@${row.username}`,
    author: row.authorName ?? row.username,
    avatar: avatarFor(row.username),
    content: row.text,
    image: row.imageUrl,
    likes: row.likes,
    replies: row.replies,
    type: row.imageUrl ? 'image' : 'text',
    timestamp: row.postedAt?.toISOString() ?? null,
    permalink: row.permalink,
    topic_tag: row.topicTag,
    fetched_at: row.fetchedAt.toISOString(),
    source: row.source,
    reviewed: row.status !== 'pending',
  };
}

/** The review queue (admins) and a member's own threads. */
const threadRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  const threads = createThreadsRepository(db);
  const audit = createAuditLogRepository(db);

  app.get('/api/threads/pending-review', { config: { access: 'admin' } }, async () => ({
    threads: (await threads.listPending()).map(toReviewThread),
  }));

  app.get('/api/user/threads', { config: { access: 'user' } }, async (request) => {
    const user = await request.authUser();
    return { threads: (await threads.listOwn(user.id)).map(toReviewThread) };
  });

  /** One decision per thread: conditional on pending, with its audit row in the same transaction. */
  const decide = (status: ThreadDecision) => async (request: FastifyRequest) => {
    const admin = await request.authUser();
    const { thread_id: threadId } = parseBody(ThreadDecisionSchema, request.body);
    await db.transaction(async (tx) => {
      const decided = await threads.decide(threadId, status, tx);
      if (!decided) {
        const existing = await threads.find(threadId, tx);
        throw existing
          ? new HttpError(409, `This thread was already decided (${existing.status}).`)
          : new HttpError(404, 'No such thread.');
      }
      const action = status === 'approved' ? 'thread.approve' : 'thread.reject';
      await audit.record({ actorUserId: admin.id, action, subject: threadId }, tx);
    });
    if (status === 'approved') app.contentChanged('threads');
    return { success: true, status };
  };
  app.post('/api/threads/approve', { config: { access: 'admin' } }, decide('approved'));
  app.post('/api/threads/reject', { config: { access: 'admin' } }, decide('rejected'));
};

export default threadRoutes;
