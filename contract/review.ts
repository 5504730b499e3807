import { ReviewSignalsSchema } from './review-signals.ts';
import { ThreadTypeSchema } from './thread-card.ts';
import { z } from './zod.ts';

/** Where a thread came from (spec section 3). */
export const ThreadSourceSchema = z.enum(['user_own', 'public_search', 'public_tag', 'manual_submission']);
export type ThreadSource = z.infer<typeof ThreadSourceSchema>;

/** Where a thread stands: 'hidden' by an admin after approval, 'removed' from the catalogue by its author. */
export const ThreadStatusSchema = z.enum(['pending', 'approved', 'rejected', 'hidden', 'removed']);
export type ThreadStatus = z.infer<typeof ThreadStatusSchema>;

const count = () => z.nullable(z.int().check(z.nonnegative()));

/** Thread card of the Pending Review and My Threads tabs (spec section 3, "pending/own"). */
export const ReviewThreadSchema = z.object({
  id: z.string(),
  handle: z.string(),
  author: z.string(),
  avatar: z.string(),
  content: z.string(),
  image: z.nullable(z.string()),
  likes: count(),
  replies: count(),
  type: ThreadTypeSchema,
  timestamp: z.nullable(z.string()),
  permalink: z.string(),
  topic_tag: z.nullable(z.string()),
  fetched_at: z.string(),
  source: ThreadSourceSchema,
  reviewed: z.boolean(),
  /** Where it stands (My Threads only: a member's own threads in every status). */
  status: z.optional(ThreadStatusSchema),
  /** A manual submission's note from the member who sent it (review queue only). */
  notes: z.optional(z.nullable(z.string())),
  /** The keyword or tag whose search found it (review queue only). */
  query: z.optional(z.nullable(z.string())),
  /** Its author asked never to be curated (review queue only; decision 028). */
  author_opted_out: z.optional(z.boolean()),
  /** How many posts its author took out of the catalogue (review queue only). */
  author_removed_count: z.optional(z.int().check(z.nonnegative())),
  /** History, near-duplicates and quality score (review queue only; decision 055). */
  signals: z.optional(ReviewSignalsSchema),
});
export type ReviewThread = z.infer<typeof ReviewThreadSchema>;

/** `GET /api/user/threads`: the signed-in member's own threads, in every status. */
export const OwnThreadsSchema = z.object({ threads: z.array(ReviewThreadSchema) });

/** The review card's chips about the author's own choices (decision 028), in words; none when they made none. */
export function authorChips(
  thread: Pick<ReviewThread, 'author_opted_out' | 'author_removed_count'>,
): string[] {
  const chips: string[] = [];
  if (thread.author_opted_out) chips.push('Author asked never to be curated');
  const removed = thread.author_removed_count ?? 0;
  if (removed > 0)
    chips.push(`Author removed ${removed === 1 ? '1 post' : `${removed} posts`} from the catalogue`);
  return chips;
}

/**
 * The badge text of a source (spec section 2), in words: a member's submission reads 'Member
 * Submission', not the spec's raw source (decision 040); any source we do not know stays raw.
 */
export function sourceBadge(source: string): string {
  if (source === 'user_own') return 'Your Post';
  if (source === 'public_search') return 'Keyword Search';
  if (source === 'public_tag') return 'Tag Search';
  if (source === 'manual_submission') return 'Member Submission';
  return source;
}

/** `GET /api/admin/runs` items: the last curation runs. */
export const CurationRunSummarySchema = z.object({
  id: z.int(),
  trigger: z.enum(['schedule', 'admin', 'cli']),
  status: z.enum(['running', 'succeeded', 'partial', 'failed']),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  // insights_skipped: only where a token lacked threads_manage_insights, so no call was made (decision 068).
  counts: z.record(
    z.string(),
    z.object({ seen: z.int(), added: z.int(), insights_skipped: z.optional(z.int()) }),
  ),
  searches: z.int(),
  hidden: z.int(),
  errors: z.array(z.string()),
});
export type CurationRunSummary = z.infer<typeof CurationRunSummarySchema>;

/** `POST /api/admin/refresh`: the run it made. */
export const CurationRunResultSchema = z.object({ run: CurationRunSummarySchema });
/** `GET /api/admin/runs`: the last runs, newest first. */
export const CurationRunsSchema = z.object({ runs: z.array(CurationRunSummarySchema) });

/** A status in the words a member reads about their own threads. */
const OWN_STATUS_WORDS: Readonly<Record<ThreadStatus, string>> = {
  approved: 'in the catalogue',
  pending: 'waiting for review',
  rejected: 'declined',
  hidden: 'hidden by an admin',
  removed: 'taken out by you',
};

/**
 * The one definition of a member's thread counts (issue 20): the dashboard lists every thread of
 * theirs, a profile counts those in the catalogue. This line says both, so the two never seem to
 * disagree: "9 threads of yours: 2 in the catalogue, 6 waiting for review, 1 declined".
 */
export function ownThreadsSummary(statuses: readonly ThreadStatus[]): string {
  const counts = new Map<ThreadStatus, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  const total = statuses.length;
  const parts = (Object.keys(OWN_STATUS_WORDS) as ThreadStatus[])
    // The catalogue's count is always said: it is the number the profile shows.
    .filter((status) => status === 'approved' || counts.has(status))
    .map((status) => `${counts.get(status) ?? 0} ${OWN_STATUS_WORDS[status]}`);
  return `${total} ${total === 1 ? 'thread' : 'threads'} of yours: ${parts.join(', ')}`;
}
