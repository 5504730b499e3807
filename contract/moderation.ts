import { z } from './zod.ts';
import { hasHiddenCharacters } from './hidden-characters.ts';
import { REJECTION_REASON_MAX, REJECTION_REASON_MESSAGES as M } from './rejection-reasons.ts';

export {
  REJECTION_REASON_MAX,
  REJECTION_REASON_MESSAGES,
  REJECTION_REASON_PRESETS,
} from './rejection-reasons.ts';

/** A rejection's reason: published on /moderation, so nothing may hide or reverse what it says. */
export const RejectionReasonSchema = z.string().check(
  z.maxLength(REJECTION_REASON_MAX * 4, M.tooLong),
  // NUL cannot be stored either.
  z.refine((reason) => !hasHiddenCharacters(reason), M.hidden),
  z.overwrite((reason) => reason.normalize('NFC').trim()),
  z.refine((reason) => [...reason].length <= REJECTION_REASON_MAX, M.tooLong),
);

/** `POST /api/threads/approve` and `/reject`: the thread, and for a rejection an optional reason. */
export const ThreadDecisionSchema = z.strictObject({
  thread_id: z.uuid('thread_id must be a thread id'),
  reason: z.optional(RejectionReasonSchema),
});
export type ThreadDecisionRequest = z.input<typeof ThreadDecisionSchema>;

/** `POST /api/threads/approve` and `/reject`: the decision, and the reason as stored (trimmed, NFC). */
export const ThreadDecisionResultSchema = z.object({
  success: z.literal(true),
  status: z.enum(['approved', 'rejected']),
  reason: z.nullable(z.string()),
});
