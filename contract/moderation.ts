import { z } from 'zod';

/** Why a thread was rejected: the presets the review queue offers before free text. */
export const REJECTION_REASON_PRESETS = [
  'Not about design or UI',
  'Duplicate of a thread already curated',
  'Low effort or too little to learn from',
  'Promotional or spam',
  'Offensive or unsafe',
] as const;

/** The longest reason an admin may write; the member and the public log read it whole. */
export const REJECTION_REASON_MAX = 300;

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
