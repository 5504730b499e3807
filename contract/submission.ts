import { hasHiddenCharacters } from './hidden-characters.ts';
import { ReviewThreadSchema, ThreadStatusSchema } from './review.ts';
import { THREAD_URL_MAX_LENGTH } from './thread-url.ts';
import { z } from './zod.ts';

/** Longest note a member may attach to a submission. */
export const NOTES_MAX_LENGTH = 1000;
/** Manual submissions a member may make per rolling hour. */
export const SUBMISSIONS_PER_HOUR = 10;

/** Why a submission note is refused, or null; the length is counted in characters, as typed. */
export function notesProblem(notes: string): string | null {
  if (hasHiddenCharacters(notes)) return 'Notes cannot contain control or text-direction characters.';
  if ([...notes.trim()].length > NOTES_MAX_LENGTH)
    return `Notes can be at most ${NOTES_MAX_LENGTH} characters.`;
  return null;
}

/** A manual submission's status is its thread's review status ('removed': by its author). */
export type SubmissionStatus = z.infer<typeof ThreadStatusSchema>;

/** `GET /api/dashboard/manual-submissions` items (spec section 3, "Manual submission"). */
export const ManualSubmissionSchema = z.extend(
  z.pick(ReviewThreadSchema, {
    author: true,
    handle: true,
    avatar: true,
    content: true,
    image: true,
    likes: true,
    replies: true,
    type: true,
    permalink: true,
    topic_tag: true,
  }),
  {
    id: z.string(),
    thread_url: z.string(),
    notes: z.nullable(z.string()),
    status: ThreadStatusSchema,
    created_at: z.string(),
    /** When the member submitted it (the same moment as created_at; the spec lists both). */
    submitted_at: z.string(),
    /** When an admin approved or rejected it; null while it waits. */
    decided_at: z.nullable(z.string()),
    /** Why it was rejected, when the admin said; null otherwise. */
    decision_reason: z.nullable(z.string()),
  },
);
export type ManualSubmission = z.infer<typeof ManualSubmissionSchema>;

/** `POST /api/dashboard/manual-submission` body: a thread's address and an optional note. */
export const ManualSubmissionRequestSchema = z.strictObject({
  thread_url: z
    .string({ error: 'thread_url must be a link to a Threads post' })
    .check(z.maxLength(THREAD_URL_MAX_LENGTH * 2)),
  notes: z.nullish(
    z
      .string({ error: 'notes must be text' })
      .check(z.maxLength(NOTES_MAX_LENGTH * 4, `Notes can be at most ${NOTES_MAX_LENGTH} characters.`)),
  ),
  /** 'Show my posts as cards' ticked (decision 070): the member's consent, given with the submission. */
  show_as_cards: z.optional(z.boolean({ error: 'show_as_cards must be true or false' })),
});
export type ManualSubmissionRequest = z.input<typeof ManualSubmissionRequestSchema>;

export const GeneratedPostStatusSchema = z.enum(['pending', 'published', 'failed']);
export type GeneratedPostStatus = z.infer<typeof GeneratedPostStatusSchema>;

/** `GET /api/dashboard/generated-posts` items (spec section 3, "Generated post"). */
export const GeneratedPostSchema = z.object({
  id: z.string(),
  content: z.string(),
  media_url: z.nullable(z.string()),
  /** The published post on the curator's Threads account; null until published. */
  thread_url: z.nullable(z.string()),
  status: GeneratedPostStatusSchema,
  created_at: z.string(),
  /** The submitted thread it features. */
  source_url: z.string(),
  /** Why publishing failed, when it did. */
  error: z.nullable(z.string()),
});
export type GeneratedPost = z.infer<typeof GeneratedPostSchema>;

export type BadgeTone = 'green' | 'yellow' | 'gray';

/** Submission badge (spec section 4): approved green, pending yellow, any other gray. */
export function submissionBadgeTone(status: string): BadgeTone {
  if (status === 'approved') return 'green';
  if (status === 'pending') return 'yellow';
  return 'gray';
}

/** Generated post badge (spec section 4): published green, pending yellow, any other gray. */
export function generatedPostBadgeTone(status: string): BadgeTone {
  if (status === 'published') return 'green';
  if (status === 'pending') return 'yellow';
  return 'gray';
}

/**
 * The Manual Submissions tab counts posts generated from approved submissions: a submission still
 * waiting for review is not one yet, and this line says so (issue 20), or null when none waits.
 */
export function waitingSubmissionsNote(
  submissions: readonly Pick<ManualSubmission, 'status'>[],
): string | null {
  const waiting = submissions.filter((submission) => submission.status === 'pending').length;
  if (waiting === 0) return null;
  const which = waiting === 1 ? '1 submission of yours is' : `${waiting} submissions of yours are`;
  return `${which} waiting for review; once approved, the post made from it is listed here.`;
}

/** `POST /api/dashboard/manual-submission` (201): the submission as stored. */
export const ManualSubmissionCreatedSchema = z.object({ submission: ManualSubmissionSchema });
/** `GET /api/dashboard/manual-submissions`: the member's submissions, newest first. */
export const ManualSubmissionsSchema = z.object({ submissions: z.array(ManualSubmissionSchema) });
/** `GET /api/dashboard/generated-posts`: posts made from approved submissions, newest first. */
export const GeneratedPostsSchema = z.object({ posts: z.array(GeneratedPostSchema) });
