import { z } from 'zod';
import { hasHiddenCharacters } from './hidden-characters.ts';
import { REJECTION_REASON_MAX, REJECTION_REASON_MESSAGES as M } from './rejection-reasons.ts';

export {
  REJECTION_REASON_MAX,
  REJECTION_REASON_MESSAGES,
  REJECTION_REASON_PRESETS,
} from './rejection-reasons.ts';

/** `POST /api/threads/approve` and `/reject`: the thread, and for a rejection an optional reason. */
export const ThreadDecisionSchema = z
  .object({
    thread_id: z.uuid('thread_id must be a thread id'),
    reason: z
      .string()
      .max(REJECTION_REASON_MAX * 4, M.tooLong)
      // It is published on /moderation: nothing may hide or reverse what it says (and NUL cannot be stored).
      .refine((reason) => !hasHiddenCharacters(reason), M.hidden)
      .transform((reason) => reason.normalize('NFC').trim())
      .refine((reason) => [...reason].length <= REJECTION_REASON_MAX, M.tooLong)
      .optional(),
  })
  .strict();
export type ThreadDecisionRequest = z.input<typeof ThreadDecisionSchema>;
