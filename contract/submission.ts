// No zod here: the submit and dashboard islands import these types and rules.
import { hasHiddenCharacters } from './hidden-characters.ts';
import type { ReviewThread, ThreadStatus } from './review.ts';

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
export type SubmissionStatus = ThreadStatus;

/** `GET /api/dashboard/manual-submissions` items (spec section 3, "Manual submission"). */
export interface ManualSubmission extends Pick<
  ReviewThread,
  | 'author'
  | 'handle'
  | 'avatar'
  | 'content'
  | 'image'
  | 'likes'
  | 'replies'
  | 'type'
  | 'permalink'
  | 'topic_tag'
> {
  id: string;
  thread_url: string;
  notes: string | null;
  status: SubmissionStatus;
  created_at: string;
  /** When the member submitted it (the same moment as created_at; the spec lists both). */
  submitted_at: string;
  /** When an admin approved or rejected it; null while it waits. */
  decided_at: string | null;
  /** Why it was rejected, when the admin said; null otherwise. */
  decision_reason: string | null;
}

/** `POST /api/dashboard/manual-submission` body. */
export interface ManualSubmissionRequest {
  thread_url: string;
  notes?: string;
}

export type GeneratedPostStatus = 'pending' | 'published' | 'failed';

/** `GET /api/dashboard/generated-posts` items (spec section 3, "Generated post"). */
export interface GeneratedPost {
  id: string;
  content: string;
  media_url: string | null;
  /** The published post on the curator's Threads account; null until published. */
  thread_url: string | null;
  status: GeneratedPostStatus;
  created_at: string;
  /** The submitted thread it features. */
  source_url: string;
  /** Why publishing failed, when it did. */
  error: string | null;
}

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
