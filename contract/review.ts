// No zod here: the dashboard islands import these types.
import type { ThreadType } from './thread-card.ts';

/** Where a thread came from (spec section 3). */
export type ThreadSource = 'user_own' | 'public_search' | 'public_tag' | 'manual_submission';

/** Where a thread stands: 'hidden' by an admin after approval, 'removed' from the catalogue by its author. */
export type ThreadStatus = 'pending' | 'approved' | 'rejected' | 'hidden' | 'removed';

/** Thread card of the Pending Review and My Threads tabs (spec section 3, "pending/own"). */
export interface ReviewThread {
  id: string;
  handle: string;
  author: string;
  avatar: string;
  content: string;
  image: string | null;
  likes: number | null;
  replies: number | null;
  type: ThreadType;
  timestamp: string | null;
  permalink: string;
  topic_tag: string | null;
  fetched_at: string;
  source: ThreadSource;
  reviewed: boolean;
  /** Where it stands (My Threads only: a member's own threads in every status). */
  status?: ThreadStatus;
  /** A manual submission's note from the member who sent it (review queue only). */
  notes?: string | null;
  /** The keyword or tag whose search found it (review queue only). */
  query?: string | null;
  /** Its author asked never to be curated (review queue only; decision 028). */
  author_opted_out?: boolean;
  /** How many posts its author took out of the catalogue (review queue only). */
  author_removed_count?: number;
}

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
export interface CurationRunSummary {
  id: number;
  trigger: 'schedule' | 'admin' | 'cli';
  status: 'running' | 'succeeded' | 'partial' | 'failed';
  started_at: string;
  finished_at: string | null;
  counts: Record<string, { seen: number; added: number }>;
  searches: number;
  hidden: number;
  errors: string[];
}

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
