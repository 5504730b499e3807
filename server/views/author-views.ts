import {
  AUTHOR_STATUS_TEXT,
  type AuthorOverview,
  type AuthorPost,
  type AuthorPostStatus,
} from '../../contract/authors.ts';
import type { PostDisplay } from '../../contract/threads-embed.ts';
import type { AuthorOptOut } from '../repositories/author-opt-outs.ts';
import type { ThreadRow } from '../repositories/threads.ts';
import { excerptOf } from './moderation-log-view.ts';

/** One of the author's posts as 'Is this your post?' lists it: where it is, and its status in words. */
export function toAuthorPost(row: ThreadRow): AuthorPost {
  const before: AuthorPostStatus | null = row.status === 'removed' ? row.statusBeforeRemoval : null;
  return {
    id: row.id,
    permalink: row.permalink,
    excerpt: excerptOf(row.text) ?? '',
    posted_at: row.postedAt?.toISOString() ?? null,
    status: row.status,
    status_text: AUTHOR_STATUS_TEXT[row.status],
    restores_to: before ? AUTHOR_STATUS_TEXT[before] : null,
  };
}

/** What the catalogue holds of the signed-in author, and whether they opted out. */
export function toAuthorOverview(
  threadsUsername: string,
  optOut: AuthorOptOut | null,
  cards: { shown: boolean; display: PostDisplay },
  rows: ThreadRow[],
): AuthorOverview {
  return {
    threads_username: threadsUsername,
    opted_out: optOut !== null,
    opted_out_at: optOut?.createdAt.toISOString() ?? null,
    shown_as_cards: cards.shown,
    post_display: cards.display,
    posts: rows.map(toAuthorPost),
  };
}
