import type { ReactNode } from 'react';
import { authorChips, type ReviewThread, sourceBadge } from '../../../contract/review.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { countLabel } from '../../lib/format.ts';
import { ThreadAvatar, ThreadImage } from './ThreadCardView.tsx';
import DateTime from './DateTime.tsx';
import ReviewSignals, { ReviewHighlight } from './ReviewSignals.tsx';

interface Props {
  thread: ReviewThread;
  /** Action buttons (Approve, Reject) below the card; none for the member's own threads. */
  children?: ReactNode;
}

/** A thread of the Pending Review or My Threads tab: author, source badge, time, text, image, counts, link. */
export default function ReviewThreadCard({ thread, children }: Props) {
  return (
    <article className="thread-card review-card">
      <header className="thread-card__author">
        <ThreadAvatar src={thread.avatar} loading="lazy" />
        <div className="review-card__who">
          <h3 className="thread-card__name">{thread.author}</h3>
          <p className="thread-card__handle">{thread.handle}</p>
        </div>
        <span className="badge badge--gray review-card__source">{sourceBadge(thread.source)}</span>
      </header>
      {authorChips(thread).length > 0 && (
        <p className="review-card__author-chips">
          {authorChips(thread).map((chip) => (
            <span key={chip} className="badge badge--yellow">
              {chip}
            </span>
          ))}
        </p>
      )}
      {thread.timestamp !== null && (
        <p className="field-help">
          <DateTime iso={thread.timestamp} />
        </p>
      )}
      <p className="thread-card__content">
        <ReviewHighlight text={thread.content} query={thread.query} />
      </p>
      {thread.signals && <ReviewSignals signals={thread.signals} />}
      {thread.query && <p className="field-help review-card__query">Found by “{thread.query}”</p>}
      {thread.notes && (
        <p className="review-card__notes">
          <strong>Member’s note:</strong> {thread.notes}
        </p>
      )}
      {thread.image !== null && <ThreadImage src={thread.image} author={thread.author} loading="lazy" />}
      <footer className="thread-card__meta">
        {thread.likes !== null && <span>{countLabel(thread.likes, 'like', 'likes')}</span>}
        {thread.replies !== null && <span>{countLabel(thread.replies, 'reply', 'replies')}</span>}
        <a className="thread-card__link" href={thread.permalink} rel="noopener noreferrer">
          {TEXTS.viewOnThreads}
        </a>
      </footer>
      {children !== undefined && <div className="form-actions review-card__actions">{children}</div>}
    </article>
  );
}
