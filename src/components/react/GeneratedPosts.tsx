import { useStore } from '@nanostores/react';
import { CARD_IMAGE_SIZE } from '../../../contract/constants.ts';
import {
  type GeneratedPost,
  generatedPostBadgeTone,
  waitingSubmissionsNote,
} from '../../../contract/submission.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { $generatedPosts, $ownSubmissions, loadedItems, loadGeneratedPosts } from '../../stores/dashboard.ts';
import DateTime from './DateTime.tsx';

/** One generated post: status badge, media, content, its published thread and the thread it features. */
function GeneratedPostCard({ post }: { post: GeneratedPost }) {
  return (
    <article className="thread-card generated-post">
      <header className="generated-post__head">
        <span className={`badge badge--${generatedPostBadgeTone(post.status)}`}>{post.status}</span>
        <DateTime className="field-help" iso={post.created_at} />
      </header>
      {post.media_url !== null && (
        <img
          className="thread-card__image"
          src={post.media_url}
          alt="Media of the generated post"
          width={CARD_IMAGE_SIZE.width}
          height={CARD_IMAGE_SIZE.height}
          loading="lazy"
          decoding="async"
        />
      )}
      <p className="thread-card__content">{post.content}</p>
      {post.status === 'failed' && post.error !== null && (
        <p className="form-error generated-post__error">Publishing failed: {post.error}</p>
      )}
      <footer className="thread-card__meta">
        <a href={post.source_url} rel="noopener noreferrer">
          Featured thread
        </a>
        {post.status === 'published' && post.thread_url !== null && (
          <a className="thread-card__link" href={post.thread_url} rel="noopener noreferrer">
            {TEXTS.viewOnThreads}
          </a>
        )}
      </footer>
    </article>
  );
}

/** The Manual Submissions tab: the posts generated from the member's submissions, and a link to /submit. */
export default function GeneratedPosts() {
  const state = useStore($generatedPosts);
  const waiting = waitingSubmissionsNote(loadedItems(useStore($ownSubmissions)));
  let body;
  if (state.status === 'loading') body = <p role="status">{TEXTS.loading}</p>;
  else if (state.status === 'error') {
    body = (
      <div className="dashboard-error">
        <p className="form-error" role="alert">
          {TEXTS.manualSubmissionsFailed}
        </p>
        <button type="button" className="button button--quiet" onClick={() => void loadGeneratedPosts()}>
          {TEXTS.tryAgain}
        </button>
      </div>
    );
  } else if (state.data.length === 0) {
    // Also a member without an approved profile (403): nothing submitted yet, and the way to start.
    body = <p>{TEXTS.noManualSubmissions}</p>;
  } else {
    body = (
      <ul className="thread-grid dashboard-list">
        {state.data.map((post) => (
          <li key={post.id}>
            <GeneratedPostCard post={post} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <>
      <p className="manual-submissions__submit">
        <a className="button button--quiet" href="/submit">
          Submit a thread
        </a>
      </p>
      {waiting && (
        <p className="field-help">
          {waiting} <a href="/submit#your-submissions">{TEXTS.yourSubmissions}</a>
        </p>
      )}
      {body}
    </>
  );
}
