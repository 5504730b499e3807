import { AVATAR_SIZE, CARD_IMAGE_SIZE } from '../../contract/constants.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { TEXTS } from '../../contract/texts.ts';
import { countLabel } from '../lib/format.ts';

interface Props {
  card: ThreadCard;
  /** Cards in the first row load their images at once; the rest wait until they near the viewport. */
  eager: boolean;
  /** The first card's image is usually the largest paint on the page: fetch it before anything else. */
  priority?: boolean;
}

/** A thread's attached image, at the card's fixed size so nothing shifts while it loads. */
export function ThreadImage({
  src,
  author,
  loading,
  priority = false,
}: {
  src: string;
  author: string;
  loading: 'eager' | 'lazy';
  priority?: boolean;
}) {
  return (
    <img
      className="thread-card__image"
      src={src}
      alt={`Attachment shared by ${author}`}
      width={CARD_IMAGE_SIZE.width}
      height={CARD_IMAGE_SIZE.height}
      loading={loading}
      decoding="async"
      fetchPriority={priority ? 'high' : 'auto'}
    />
  );
}

/** One curated thread: author, text, optional image, and likes and replies when known. */
export default function ThreadCardView({ card, eager, priority = false }: Props) {
  const loading = eager ? 'eager' : 'lazy';
  return (
    <article className="thread-card">
      <header className="thread-card__author">
        <img
          className="thread-card__avatar"
          src={card.avatar}
          alt=""
          width={AVATAR_SIZE}
          height={AVATAR_SIZE}
          loading={loading}
          decoding="async"
        />
        <div>
          <h2 className="thread-card__name">{card.author}</h2>
          <p className="thread-card__handle">{card.handle}</p>
        </div>
      </header>
      <p className="thread-card__content">{card.content}</p>
      {card.image !== null && (
        <ThreadImage src={card.image} author={card.author} loading={loading} priority={priority} />
      )}
      {(card.likes !== null || card.replies !== null || card.permalink) && (
        <footer className="thread-card__meta">
          {card.likes !== null && <span>{countLabel(card.likes, 'like', 'likes')}</span>}
          {card.replies !== null && <span>{countLabel(card.replies, 'reply', 'replies')}</span>}
          {card.permalink && (
            <a className="thread-card__link" href={card.permalink} rel="noopener noreferrer">
              {TEXTS.viewOnThreads}
            </a>
          )}
        </footer>
      )}
    </article>
  );
}
