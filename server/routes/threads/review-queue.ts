import type { FastifyInstance } from 'fastify';
import { BulkDecisionSchema, ReviewQueueQuerySchema } from '../../../contract/review-queue-schemas.ts';
import {
  BulkDecisionResultSchema,
  ReviewQueuePageSchema,
  type BulkDecisionResult,
  type ReviewQueuePage,
} from '../../../contract/review-queue.ts';
import type { Database } from '../../db/client.ts';
import { createQueuePages } from '../../services/review/queue-page.ts';
import { toQueuedThread } from '../../views/thread-views.ts';
import { authorFlagsOf } from '../../services/authors/queue-flags.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import type { ThreadDecider } from './decide-thread.ts';
import { decodeCursor, encodeCursor } from './review-cursor.ts';

export interface ReviewQueueOptions {
  db: Database;
  decideThread: ThreadDecider;
  /** After decisions were committed: what a decision of this kind tells the rest of the server. */
  afterDecisions(status: 'approved' | 'rejected', queuedPosts: boolean): void;
}

/** The admins' review queue a page at a time, and decisions on many threads at once. */
export function registerReviewQueue(
  server: FastifyInstance,
  { db, decideThread, afterDecisions }: ReviewQueueOptions,
) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const pages = createQueuePages(db);
  const queue = pages.queue;
  const admin = { access: 'admin' as const };
  const pageSchema = { querystring: ReviewQueueQuerySchema, response: { 200: ReviewQueuePageSchema } };
  const bulkSchema = { body: BulkDecisionSchema, response: { 200: BulkDecisionResultSchema } };

  // Keyset pages (decision 013): a cursor names the last thread shown, so threads decided or added
  // between two pages neither repeat nor go missing.
  app.get('/api/threads/pending-review', { config: admin, schema: pageSchema }, async (request) => {
    const {
      source,
      query,
      sort,
      cursor,
      hide_rejected_authors: hide,
      group_duplicates: group,
    } = request.query;
    const key = cursor ? decodeCursor(cursor, sort) : null;
    const filter = { source, query, hideRejectedAuthors: hide === 'true' };
    const { entries, signals, next } = await pages.page({ filter, sort, key, group: group === 'true' });
    const shown = entries.map(({ row: { facts: _facts, ...row } }) => row);
    // Authors in control (decision 028): whether each author opted out or removed posts.
    const flags = await authorFlagsOf(db, shown);
    const page: ReviewQueuePage = {
      threads: shown.map((row) => ({
        ...toQueuedThread(row),
        ...flags.get(row.id),
        ...(signals.has(row.id) ? { signals: signals.get(row.id) } : {}),
      })),
      next_cursor: next ? encodeCursor(next) : null,
      total: await queue.count(filter),
      queries: await queue.queries(),
      sources: await queue.sources(),
    };
    return page;
  });

  // One transaction for the whole batch: an id that names no thread refuses all of it; threads
  // someone decided meanwhile are reported back and the others are decided.
  app.post('/api/threads/decide-many', { config: admin, schema: bulkSchema }, async (request) => {
    const { id: actorUserId } = await request.authUser();
    const { thread_ids: ids, action, reason } = request.body;
    if (action === 'approve' && reason) throw new HttpError(400, 'Only a rejection takes a reason.');
    const status = action === 'approve' ? 'approved' : 'rejected';
    const { result, queued } = await db.transaction(async (tx) => {
      const known = await queue.statuses(ids, tx);
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0) {
        throw new HttpError(404, `No such thread: ${missing.join(', ')}. Nothing was decided.`);
      }
      const outcome: BulkDecisionResult = { decided: [], already_decided: [] };
      let anyQueued = false;
      // Rows are locked in one order (sorted ids), so two overlapping batches wait for each other
      // instead of deadlocking.
      for (const threadId of [...ids].sort()) {
        const done = await decideThread({ threadId, status, reason: reason || null, actorUserId }, tx);
        if (done) {
          outcome.decided.push(threadId);
          anyQueued ||= done.queued;
        } else {
          // Read again: the status read before the row lock may be 'pending' still.
          const now = await queue.statuses([threadId], tx);
          outcome.already_decided.push({ thread_id: threadId, status: now.get(threadId) ?? 'unknown' });
        }
      }
      // Answered in the order the ids were sent, whatever order they were locked in.
      const order = (id: string) => ids.indexOf(id);
      outcome.decided.sort((a, b) => order(a) - order(b));
      outcome.already_decided.sort((a, b) => order(a.thread_id) - order(b.thread_id));
      return { result: outcome, queued: anyQueued };
    });
    if (result.decided.length > 0) afterDecisions(status, queued);
    return result;
  });
}
