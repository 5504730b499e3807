import { z } from 'zod';
import { REJECTION_REASON_MAX } from './rejection-reasons.ts';

export { REJECTION_REASON_MAX, REJECTION_REASON_PRESETS } from './rejection-reasons.ts';

/** `POST /api/threads/approve` and `/reject`: the thread, and for a rejection an optional reason. */
export const ThreadDecisionSchema = z
  .object({
    thread_id: z.uuid('thread_id must be a thread id'),
    reason: z
      .string()
      .max(REJECTION_REASON_MAX * 4, `The reason can be at most ${REJECTION_REASON_MAX} characters.`)
      .transform((reason) => reason.normalize('NFC').trim())
      .refine(
        (reason) => [...reason].length <= REJECTION_REASON_MAX,
        `The reason can be at most ${REJECTION_REASON_MAX} characters.`,
      )
      .optional(),
  })
  .strict();
export type ThreadDecisionRequest = z.input<typeof ThreadDecisionSchema>;
