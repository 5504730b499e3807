import { PostDisplaySchema } from './threads-embed.ts';
import { z } from './zod.ts';

/** A post's status as its author sees it (every status the catalogue keeps). */
export const AUTHOR_POST_STATUSES = ['pending', 'approved', 'rejected', 'hidden', 'removed'] as const;
export type AuthorPostStatus = (typeof AUTHOR_POST_STATUSES)[number];

/** The page that explains the catalogue to the people whose posts it holds. */
export const YOUR_POSTS_PATH = '/your-posts';

/** Most posts `GET /api/authors/me` lists (newest first). */
export const AUTHOR_POSTS_MAX = 200;

/** One of the signed-in author's posts the catalogue holds. */
export const AuthorPostSchema = z.object({
  id: z.string(),
  permalink: z.string(),
  /** The start of the post's text ('' when we hold none: a submitted link). */
  excerpt: z.string(),
  posted_at: z.nullable(z.string()),
  status: z.enum(AUTHOR_POST_STATUSES),
  /** The status in words. */
  status_text: z.string(),
  /** For a removed post: what 'Restore' brings it back to, in words. */
  restores_to: z.nullable(z.string()),
});
export type AuthorPost = z.infer<typeof AuthorPostSchema>;

/** `GET /api/authors/me`: what the catalogue holds of the signed-in person, and whether they opted out. */
export const AuthorOverviewSchema = z.object({
  threads_username: z.string(),
  opted_out: z.boolean(),
  /** When they asked never to be curated (null when they did not). */
  opted_out_at: z.nullable(z.string()),
  /** They chose 'Show my posts as cards' (decision 070). */
  shown_as_cards: z.boolean(),
  /** How the site shows the posts of authors who did not choose cards. */
  post_display: PostDisplaySchema,
  posts: z.array(AuthorPostSchema),
});
export type AuthorOverview = z.infer<typeof AuthorOverviewSchema>;

/** `POST /api/authors/me/posts/{id}/remove` and `/restore`: the post as it is now. */
export const AuthorPostResultSchema = z.object({ post: AuthorPostSchema });
export type AuthorPostResult = z.infer<typeof AuthorPostResultSchema>;

/** `POST` and `DELETE /api/authors/me/opt-out`: the new state, and how many waiting posts left the queue. */
export const AuthorOptOutResultSchema = z.object({
  opted_out: z.boolean(),
  removed_from_queue: z.int().check(z.nonnegative()),
});
export type AuthorOptOutResult = z.infer<typeof AuthorOptOutResultSchema>;

/** `POST` and `DELETE /api/authors/me/cards`: the new state, and how many posts on show changed look. */
export const AuthorCardsResultSchema = z.object({
  shown_as_cards: z.boolean(),
  changed_on_site: z.int().check(z.nonnegative()),
});
export type AuthorCardsResult = z.infer<typeof AuthorCardsResultSchema>;

/** The consent's words, on 'Your posts' and the submit form (issue 35). */
export const SHOW_AS_CARDS_LABEL = 'Show my posts as cards';

/** `/api/authors/me/posts/{id}/remove` and `/restore`: the post's id in the path. */
export const AuthorPostParamsSchema = z.strictObject({ id: z.uuid('id must be a thread id') });
export type AuthorPostParams = z.infer<typeof AuthorPostParamsSchema>;

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
  cardsHeading: 'How visitors see your posts',
  cardsEmbed:
    "Visitors see your posts through Threads' own embed, loaded from Threads. Choose cards to show them here with their text and picture, as this site's cards.",
  cardsCard:
    'Visitors see your posts as cards, with their text and picture. Untick to show them through Threads’ own embed.',
  cardsEveryone:
    'This site shows every post as a card. Your choice is kept in case it changes to Threads’ own embed.',
  cardsOnDone: 'Done: your posts show as cards with the next site update.',
  cardsOffDone: 'Done: your posts show through Threads’ embed with the next site update.',
  cardsHint: 'If this post is yours, visitors see it as a card instead of through Threads’ embed.',
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
