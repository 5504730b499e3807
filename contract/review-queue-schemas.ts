import { z } from './zod.ts';
import { hasHiddenCharacters } from './hidden-characters.ts';
import { RejectionReasonSchema } from './moderation.ts';
import { REVIEW_FLAGS } from './review-signals.ts';
import { BULK_DECISION_MAX, REVIEW_SORTS, REVIEW_SOURCES } from './review-queue.ts';

/** `GET /api/threads/pending-review` query: filters, order and the opaque cursor of the next page. */
export const ReviewQueueQuerySchema = z.strictObject({
  source: z.optional(
    z.enum(REVIEW_SOURCES, 'source must be user_own, public_search, public_tag or manual_submission'),
  ),
  query: z.optional(
    z.string().check(
      z.trim(),
      z.minLength(1, 'query must not be empty'),
      z.maxLength(200, 'query is too long'),
      z.refine((query) => !hasHiddenCharacters(query), 'query cannot contain control characters'),
    ),
  ),
  sort: z._default(z.enum(REVIEW_SORTS, 'sort must be newest, likes or score'), 'newest'),
  hide_rejected_authors: z.optional(z.enum(REVIEW_FLAGS, 'hide_rejected_authors must be true or false')),
  group_duplicates: z.optional(z.enum(REVIEW_FLAGS, 'group_duplicates must be true or false')),
  cursor: z.optional(z.string().check(z.maxLength(500, 'cursor is not one this server gave'))),
});
export type ReviewQueueQuery = z.input<typeof ReviewQueueQuerySchema>;

/** Up to BULK_DECISION_MAX thread ids, each once. */
const ThreadIdsSchema = z.array(z.uuid('thread_ids must be thread ids')).check(
  z.minLength(1, 'thread_ids must name at least one thread'),
  z.maxLength(BULK_DECISION_MAX, `thread_ids can name at most ${BULK_DECISION_MAX} threads`),
  z.overwrite((ids) => [...new Set(ids)]),
);

/** `POST /api/threads/decide-many`: up to 50 threads, one action, for a rejection an optional reason. */
export const BulkDecisionSchema = z.strictObject({
  thread_ids: ThreadIdsSchema,
  action: z.enum(['approve', 'reject'], 'action must be approve or reject'),
  reason: z.optional(RejectionReasonSchema),
});
export type BulkDecisionRequest = z.input<typeof BulkDecisionSchema>;

/** `POST /api/threads/undo`: the threads whose latest decision (the caller's own) is taken back. */
export const UndoDecisionSchema = z.strictObject({ thread_ids: ThreadIdsSchema });
export type UndoDecisionRequest = z.input<typeof UndoDecisionSchema>;
