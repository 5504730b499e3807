import { avatarFor } from '../../contract/avatar.ts';
import type { ReviewThread } from '../../contract/review.ts';
import type { GeneratedPost, ManualSubmission } from '../../contract/submission.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { handleInPermalink, type PostDisplay } from '../../contract/threads-embed.ts';
import type { GeneratedPostRow } from '../repositories/generated-posts.ts';
import type { CardRow } from '../repositories/card-columns.ts';
import type { PendingRow } from '../repositories/review-queue.ts';
import type { ThreadRow } from '../repositories/threads.ts';

/** Who wrote a stored thread. A submitted /t/ link may not tell: the shortcode stands in. */
function authorOf(row: Pick<ThreadRow, 'username' | 'authorName' | 'shortcode'>) {
  return {
    handle: row.username ? `@${row.username}` : 'Threads post',
    author: row.authorName ?? row.username ?? 'Unknown author',
    // Avatars come from the handle (spec section 7), never from stored third-party images.
    avatar: avatarFor(row.username ?? row.shortcode),
  };
}

/**
 * The stable address of an approved thread's picture (decision 025): the API redirects it to the
 * current signed Threads address, so a card never embeds one that expires within hours. `base` is
 * the API's origin when the pages are served from another one, '' on the same origin.
 */
export const pictureAddress = (threadId: string, base = '') => `${base}/api/media/${threadId}`;

/** What every card of a stored thread shows: who, what, and the link. */
function cardFields(row: CardRow, pictureBase?: string) {
  return {
    ...authorOf(row),
    content: row.text,
    // Only an approved thread's picture has a stable address; the review cards of a fresh find
    // show the address Threads just gave.
    image: row.imageUrl && row.status === 'approved' ? pictureAddress(row.id, pictureBase) : row.imageUrl,
    likes: row.likes,
    replies: row.replies,
    type: row.imageUrl ? ('image' as const) : ('text' as const),
    permalink: row.permalink,
  };
}

/** A stored thread as the dashboard's cards show it. */
export function toReviewThread(row: ThreadRow): ReviewThread {
  return {
    id: row.id,
    ...cardFields(row),
    timestamp: (row.postedAt ?? row.createdAt).toISOString(),
    topic_tag: row.topicTag,
    fetched_at: row.fetchedAt.toISOString(),
    source: row.source,
    reviewed: row.status !== 'pending',
  };
}

/** A queued thread as the admin reads it: a submission with its member's note, a found one with its query. */
export function toQueuedThread({ notes, key: _key, ...row }: PendingRow): ReviewThread {
  const thread = { ...toReviewThread(row), query: row.query };
  return row.source === 'manual_submission' ? { ...thread, notes } : thread;
}

/** Longest topic tag a public card carries (the card schema's limit, in UTF-16 units). */
const TOPIC_TAG_MAX = 50;

/** A stored tag as a card may carry it: cut to the schema's limit at a whole character, or none. */
function cardTopicTag(tag: string | null): string | null {
  if (!tag?.trim()) return null;
  let cut = '';
  for (const char of tag.trim()) {
    if (cut.length + char.length > TOPIC_TAG_MAX) break;
    cut += char;
  }
  return cut;
}

/** How a public card is drawn: the picture origin (as in pictureAddress) and the display mode (decision 070). */
export interface PublicCardOptions {
  pictureBase?: string | undefined;
  /** 'embed': a post whose author did not choose cards carries no copy, only what Threads' embed needs. */
  display?: PostDisplay | undefined;
}

/**
 * What a public card of a post shown through Threads' embed carries (decision 070): none of our copy
 * (text, picture, counts, display name), only the handle the permalink names. Its type stays, so the
 * Images filter still finds posts with pictures.
 */
function embedFields(row: CardRow) {
  const named = handleInPermalink(row.permalink);
  const handle = named ?? 'Threads post';
  return {
    handle,
    author: handle,
    avatar: avatarFor(named?.slice(1) ?? row.shortcode),
    content: '',
    image: null,
    likes: null,
    replies: null,
    type: row.imageUrl ? ('image' as const) : ('text' as const),
    permalink: row.permalink,
    display: 'embed' as const,
  };
}

/** An approved thread as the public catalogue lists it. */
export function toThreadCard(
  row: CardRow,
  { pictureBase, display = 'card' }: PublicCardOptions = {},
): ThreadCard {
  const embedded = display === 'embed' && !row.shownAsCard;
  return {
    id: row.id,
    ...(embedded ? embedFields(row) : cardFields(row, pictureBase)),
    timestamp: (row.postedAt ?? row.createdAt).toISOString(),
    // The build validates the cards it renders: a longer stored tag would stop every rebuild.
    topic_tag: cardTopicTag(row.topicTag),
  };
}

/** A member's submission with the thread it created. */
export function toManualSubmission(
  submission: { id: string; threadUrl: string; notes: string | null; createdAt: Date },
  thread: ThreadRow,
): ManualSubmission {
  const created = submission.createdAt.toISOString();
  return {
    id: submission.id,
    thread_url: submission.threadUrl,
    notes: submission.notes,
    status: thread.status,
    created_at: created,
    submitted_at: created,
    decided_at: thread.decidedAt?.toISOString() ?? null,
    // Only a rejection carries a reason (the API refuses one on approval); never show a stale one.
    decision_reason: thread.status === 'rejected' ? thread.decisionReason : null,
    ...cardFields(thread),
    topic_tag: thread.topicTag,
  };
}

/**
 * A generated post as the dashboard lists it. Only admins read why publishing failed (a Threads
 * message can name our setup); the member who submitted gets a plain sentence.
 */
export function toGeneratedPost(
  row: GeneratedPostRow,
  sourceUrl: string,
  { admin }: { admin: boolean },
): GeneratedPost {
  const memberError =
    row.status === 'failed' ? 'Publishing failed; the admins can see why.' : 'Publishing is being retried.';
  return {
    id: row.id,
    content: row.content,
    media_url: row.mediaUrl,
    thread_url: row.threadUrl,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    source_url: sourceUrl,
    error: row.error && !admin ? memberError : row.error,
  };
}
