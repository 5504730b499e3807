import { z } from 'zod';
import { hasHiddenCharacters } from './hidden-characters.ts';
import { ThreadDecisionSchema } from './moderation.ts';
import { BULK_DECISION_MAX, REVIEW_SORTS, REVIEW_SOURCES } from './review-queue.ts';

/** `GET /api/threads/pending-review` query: filters, order and the opaque cursor of the next page. */
export const ReviewQueueQuerySchema = z
  .object({
    source: z
      .enum(REVIEW_SOURCES, 'source must be user_own, public_search, public_tag or manual_submission')
      .optional(),
    query: z
      .string()
      .trim()
      .min(1, 'query must not be empty')
      .max(200, 'query is too long')
      .refine((query) => !hasHiddenCharacters(query), 'query cannot contain control characters')
      .optional(),
    sort: z.enum(REVIEW_SORTS, 'sort must be newest or likes').default('newest'),
    cursor: z.string().max(500, 'cursor is not one this server gave').optional(),
  })
  .strict();
export type ReviewQueueQuery = z.input<typeof ReviewQueueQuerySchema>;

/** `POST /api/threads/decide-many`: up to 50 threads, one action, for a rejection an optional reason. */
export const BulkDecisionSchema = z
  .object({
    thread_ids: z
      .array(z.uuid('thread_ids must be thread ids'))
      .min(1, 'thread_ids must name at least one thread')
      .max(BULK_DECISION_MAX, `thread_ids can name at most ${BULK_DECISION_MAX} threads`)
      .transform((ids) => [...new Set(ids)]),
    action: z.enum(['approve', 'reject'], 'action must be approve or reject'),
    reason: ThreadDecisionSchema.shape.reason,
  })
  .strict();
export type BulkDecisionRequest = z.input<typeof BulkDecisionSchema>;

/** `POST /api/threads/undo`: the threads whose latest decision (the caller's own) is taken back. */
export const UndoDecisionSchema = z.object({ thread_ids: BulkDecisionSchema.shape.thread_ids }).strict();
export type UndoDecisionRequest = z.input<typeof UndoDecisionSchema>;
