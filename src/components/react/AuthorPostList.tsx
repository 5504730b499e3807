import type { RefObject } from 'react';
import { AUTHOR_TEXTS, type AuthorPost } from '../../../contract/authors.ts';
import { TEXTS } from '../../../contract/texts.ts';
import DateTime from './DateTime.tsx';

interface Props {
  posts: AuthorPost[];
  /** The post whose button is waiting for the server (its buttons are disabled meanwhile). */
  busyId: string | null;
  onRemove(post: AuthorPost): void;
  onRestore(post: AuthorPost): void;
  /** The list itself: focus returns here after an action, so it is never lost with a replaced button. */
  listRef: RefObject<HTMLUListElement | null>;
}

/** The author's posts in the catalogue, each with its status in words and 'Remove this post' or 'Restore'. */
export default function AuthorPostList({ posts, busyId, onRemove, onRestore, listRef }: Props) {
  if (posts.length === 0) return <p className="author-posts__empty">{AUTHOR_TEXTS.empty}</p>;
  return (
    <ul className="author-posts" aria-label={AUTHOR_TEXTS.listLabel} ref={listRef} tabIndex={-1}>
      {posts.map((post) => (
        <li key={post.id} className="author-post" data-post-id={post.id}>
          <p className="author-post__excerpt">{post.excerpt || post.permalink}</p>
          <p className="field-help">
            {post.posted_at && (
              <>
                <DateTime iso={post.posted_at} />
                {' · '}
              </>
            )}
            <a href={post.permalink} rel="noopener noreferrer">
              {TEXTS.viewOnThreads}
            </a>
          </p>
          <p className={`author-post__status author-post__status--${post.status}`}>
            {post.status_text}
            {post.restores_to && <> (Restore makes it: {post.restores_to.toLowerCase()})</>}
          </p>
          <div className="form-actions">
            {post.status === 'removed' ? (
              <button
                type="button"
                className="button button--quiet"
                disabled={busyId === post.id}
                onClick={() => onRestore(post)}
              >
                {AUTHOR_TEXTS.restore}
              </button>
            ) : (
              <button
                type="button"
                className="button"
                disabled={busyId === post.id}
                onClick={() => onRemove(post)}
              >
                {AUTHOR_TEXTS.remove}
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
