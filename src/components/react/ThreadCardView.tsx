import { useEffect, useRef, useState } from 'react';
import { AVATAR_SIZE, CARD_IMAGE_SIZE } from '../../../contract/constants.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { threadsProfileUrl } from '../../../contract/profile-rules.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { hasThreadPage, threadPath } from '../../../contract/thread-page.ts';
import { topicPath, topicSlug } from '../../../contract/topics.ts';
import { isEmbedCard } from '../../../contract/embed-markup.ts';
import { countLabel } from '../../lib/format.ts';
import EmbedCard from './EmbedCard.tsx';
import CardActions from './CardActions.tsx';
import RelativeTime from './RelativeTime.tsx';

interface Props {
  card: ThreadCard;
  /** Cards in the first row load their images at once; the rest wait until they near the viewport. */
  eager: boolean;
  /** The first card's image is usually the largest paint on the page: fetch it before anything else. */
  priority?: boolean;
}

/**
 * A thread's attached image, at the card's fixed size so nothing shifts while it loads. A picture
 * that cannot load (Threads no longer gives it: its address answers 404, decision 025) is taken out
 * rather than shown broken, also when it failed before the island hydrated.
 */
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
  const [failed, setFailed] = useState<string | null>(null);
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0 && element.currentSrc) setFailed(src);
  }, [src]);
  if (failed === src) return null;
  return (
    <img
      ref={image}
      className="thread-card__image"
      src={src}
      alt={`Attachment shared by ${author}`}
      width={CARD_IMAGE_SIZE.width}
      height={CARD_IMAGE_SIZE.height}
      loading={loading}
      decoding="async"
      fetchPriority={priority ? 'high' : 'auto'}
      onError={() => setFailed(src)}
    />
  );
}

/** The author's avatar on a card: decorative (the name beside it says who), a fixed size. */
export function ThreadAvatar({ src, loading }: { src: string; loading: 'eager' | 'lazy' }) {
  return (
    <img
      className="thread-card__avatar"
      src={src}
      alt=""
      width={AVATAR_SIZE}
      height={AVATAR_SIZE}
      loading={loading}
      decoding="async"
    />
  );
}

/** Whether the name only repeats the handle (a post whose author gave no display name). */
function nameIsHandle({ author, handle }: Pick<ThreadCard, 'author' | 'handle'>): boolean {
  return author.trim().toLowerCase() === handle.replace(/^@/, '').trim().toLowerCase();
}

/**
 * One curated thread: author (the name a link to their Threads profile), text, optional image, when it was posted, its topic (a link to the
 * topic page), likes and replies when known, a link to the post on Threads, and 'Save as gem' for
 * approved members.
 */
export default function ThreadCardView({ card, eager, priority = false }: Props) {
  // Others' posts where the site shows them through Threads' embed (decision 070): no copy of ours.
  if (isEmbedCard(card)) return <EmbedCard card={card} />;
  const loading = eager ? 'eager' : 'lazy';
  const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
  const name = nameIsHandle(card) ? card.handle : card.author;
  const username = card.handle.replace(/^@/, '').trim();
  const page = hasThreadPage(card.id) ? threadPath(card.id) : null;
  const kind = card.image === null ? 'thread-card--text' : 'thread-card--image';
  return (
    // Image first (threads.css): the picture, or a text-only card's words, take the top of the card.
    <article className={`thread-card thread-card--catalogue ${kind}${page ? ' thread-card--linked' : ''}`}>
      <header className="thread-card__author">
        <ThreadAvatar src={card.avatar} loading={loading} />
        <div className="thread-card__who">
          <h2 className="thread-card__name">
            {/* The name leads to the author's profile on Threads, where the rest of their posts are. */}
            {username ? (
              <a href={threadsProfileUrl(username)} rel="noopener noreferrer">
                {name}
              </a>
            ) : (
              name
            )}
          </h2>
          {!nameIsHandle(card) && <p className="thread-card__handle">{card.handle}</p>}
        </div>
        {/* In the header, on one line beside names that never wrap: when the date turns into "3 hours
            ago" after hydration, nothing below it moves. It opens the thread's own page (decision
            046), named for a screen reader with the visible date inside the name. */}
        {card.timestamp &&
          (page ? (
            <a className="thread-card__time thread-card__page" href={page}>
              <span className="visually-hidden">Thread page, </span>
              <RelativeTime iso={card.timestamp} />
            </a>
          ) : (
            <RelativeTime iso={card.timestamp} className="thread-card__time" />
          ))}
      </header>
      <p className="thread-card__content">{card.content}</p>
      {card.image !== null &&
        (page ? (
          // For the pointer only: the date above is the same link for the keyboard and screen readers.
          <a className="thread-card__picture" href={page} tabIndex={-1} aria-hidden="true">
            <ThreadImage src={card.image} author={card.author} loading={loading} priority={priority} />
          </a>
        ) : (
          <ThreadImage src={card.image} author={card.author} loading={loading} priority={priority} />
        ))}
      {/* Always there: it holds the gem button's reserved slot. */}
      <footer className="thread-card__meta">
        {slug && card.topic_tag && (
          <a className="thread-card__topic" href={topicPath(slug)}>
            #{card.topic_tag}
          </a>
        )}
        {card.likes !== null && <span>{countLabel(card.likes, 'like', 'likes')}</span>}
        {card.replies !== null && <span>{countLabel(card.replies, 'reply', 'replies')}</span>}
        {card.permalink && (
          <a className="thread-card__link" href={card.permalink} rel="noopener noreferrer">
            {TEXTS.viewOnThreads}
          </a>
        )}
        <CardActions threadId={card.id} />
      </footer>
    </article>
  );
}
