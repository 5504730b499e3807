// No zod here: the /your-posts island and the catalogue cards import these types and texts
// (the request schemas are in author-schemas.ts).

/** A post's status as its author sees it (every status the catalogue keeps). */
export const AUTHOR_POST_STATUSES = ['pending', 'approved', 'rejected', 'hidden', 'removed'] as const;
export type AuthorPostStatus = (typeof AUTHOR_POST_STATUSES)[number];

/** The page that explains the catalogue to the people whose posts it holds. */
export const YOUR_POSTS_PATH = '/your-posts';

/** Most posts `GET /api/authors/me` lists (newest first). */
export const AUTHOR_POSTS_MAX = 200;

/** One of the signed-in author's posts the catalogue holds. */
export interface AuthorPost {
  id: string;
  permalink: string;
  /** The start of the post's text ('' when we hold none: a submitted link). */
  excerpt: string;
  posted_at: string | null;
  status: AuthorPostStatus;
  /** The status in words. */
  status_text: string;
  /** For a removed post: what 'Restore' brings it back to, in words. */
  restores_to: string | null;
}

/** `GET /api/authors/me`: what the catalogue holds of the signed-in person, and whether they opted out. */
export interface AuthorOverview {
  threads_username: string;
  opted_out: boolean;
  /** When they asked never to be curated (null when they did not). */
  opted_out_at: string | null;
  posts: AuthorPost[];
}

/** `POST /api/authors/me/posts/{id}/remove` and `/restore`: the post as it is now. */
export interface AuthorPostResult {
  post: AuthorPost;
}

/** `POST` and `DELETE /api/authors/me/opt-out`: the new state, and how many waiting posts left the queue. */
export interface AuthorOptOutResult {
  opted_out: boolean;
  removed_from_queue: number;
}

/** Each status in the words the author reads. */
export const AUTHOR_STATUS_TEXT: Record<AuthorPostStatus, string> = {
  pending: 'Waiting for review: not shown to visitors yet',
  approved: 'In the public catalogue',
  rejected: 'Reviewed and not selected: listed in the public moderation log',
  hidden: 'Gone from Threads, so not shown',
  removed: 'Removed by you: shown nowhere on this site',
};

/** The texts of 'Is this your post?' (the page, its island, the card and footer links). */
export const AUTHOR_TEXTS = {
  link: 'Is this your post?',
  heading: 'Is this your post?',
  remove: 'Remove this post',
  restore: 'Restore',
  optOut: 'Never curate me',
  optIn: 'Allow curation again',
  empty: 'The catalogue holds none of your posts.',
  loading: 'Loading your posts...',
  loadFailed: 'Could not load your posts.',
  listLabel: 'Your posts in the catalogue',
  signInPrompt: 'Sign in with Threads to see which of your posts the catalogue holds.',
  confirmOptOut:
    'Never curate you? Later search results and submissions of your posts will stay out of the review queue, and your posts waiting for review leave it now. Posts already in the catalogue stay until you remove them.',
  confirm: 'Yes, never curate me',
  cancel: 'Cancel',
  optedOut: 'You asked never to be curated: new posts of yours stay out of the review queue.',
  notOptedOut: 'Your public posts may be found by the curation and reviewed by an admin.',
  removed: 'Removed: the post leaves the catalogue with the next site update.',
  restored: 'Restored.',
  optedOutDone: 'Done: you will not be curated.',
  optedInDone: 'Done: your posts may be curated again.',
  actionFailed: 'That did not work. Try again.',
} as const;

/** "2 posts waiting for review left the queue." after opting out (or nothing when none did). */
export function optOutDoneText(removedFromQueue: number): string {
  if (removedFromQueue === 0) return AUTHOR_TEXTS.optedOutDone;
  const posts = removedFromQueue === 1 ? '1 post' : `${removedFromQueue} posts`;
  return `${AUTHOR_TEXTS.optedOutDone} ${posts} waiting for review left the queue.`;
}

/** Why a manual submission of an opted-out author's post is refused. */
export const OPTED_OUT_SUBMISSION =
  'The author of this post asked never to be curated, so it cannot be submitted.';
