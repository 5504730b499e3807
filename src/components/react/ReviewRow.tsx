import { useId, useState, type ReactNode } from 'react';
import { authorChips, type ReviewThread, sourceBadge } from '../../../contract/review.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { countLabel } from '../../lib/format.ts';
import DateTime from './DateTime.tsx';
import ReviewSignals, { ReviewHighlight } from './ReviewSignals.tsx';
import ReviewThumb from './ReviewThumb.tsx';

interface Props {
  thread: ReviewThread;
  /** Approve and Reject, or the reason form (which then takes the row's full width). */
  actions: ReactNode;
  /** The reason form is open: it goes under the row instead of beside it. */
  wide: boolean;
}

/**
 * One thread of the review queue as a compact row: thumbnail, who and where from, two lines of text,
 * actions. 'Show all' opens the full text, the picture, the counts and the member's note in place.
 */
export default function ReviewRow({ thread, actions, wide }: Props) {
  const [open, setOpen] = useState(false);
  const details = useId();
  const chips = authorChips(thread);
  return (
    <article className={`review-card review-row${open ? ' review-row--open' : ''}`}>
      <ReviewThumb src={thread.image} author={thread.author} />
      <div className="review-row__body">
        <p className="review-row__meta">
          <span className="review-row__author">{thread.author}</span>
          <span>{thread.handle}</span>
          <span className="review-card__source">{sourceBadge(thread.source)}</span>
          {thread.query && <span className="review-card__query">Found by “{thread.query}”</span>}
          {thread.timestamp !== null && <DateTime iso={thread.timestamp} />}
          {chips.map((chip) => (
            <span key={chip} className="review-row__chip">
              {chip}
            </span>
          ))}
        </p>
        <p className="review-row__text">
          <ReviewHighlight text={thread.content} query={thread.query} />
        </p>
        {thread.signals && <ReviewSignals signals={thread.signals} />}
        {thread.notes && !open && (
          <p className="review-row__note">
            <strong>Member’s note:</strong> {thread.notes}
          </p>
        )}
      </div>
      <div className={`review-row__actions${wide ? ' review-row__actions--wide' : ''}`}>
        {actions}
        <button
          type="button"
          className="review-row__toggle"
          aria-expanded={open}
          aria-controls={details}
          onClick={() => setOpen((was) => !was)}
        >
          {open ? 'Show less' : 'Show all'}
        </button>
        <a className="review-row__link" href={thread.permalink} rel="noopener noreferrer">
          {TEXTS.viewOnThreads}
        </a>
      </div>
      <div id={details} className="review-row__details" hidden={!open}>
        {open && (
          <>
            {thread.notes && (
              <p className="review-card__notes">
                <strong>Member’s note:</strong> {thread.notes}
              </p>
            )}
            {thread.image !== null && (
              <img
                className="review-row__image"
                src={thread.image}
                alt={`Attachment shared by ${thread.author}`}
                decoding="async"
              />
            )}
            {(thread.likes !== null || thread.replies !== null) && (
              <p className="review-row__counts">
                {thread.likes !== null && <span>{countLabel(thread.likes, 'like', 'likes')}</span>}
                {thread.replies !== null && <span>{countLabel(thread.replies, 'reply', 'replies')}</span>}
              </p>
            )}
          </>
        )}
      </div>
    </article>
  );
}
