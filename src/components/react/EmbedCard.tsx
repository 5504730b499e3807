import { useEffect } from 'react';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { hasThreadPage, threadPath } from '../../../contract/thread-page.ts';
import { embedTitle } from '../../../contract/threads-embed.ts';
import { embedQuoteHtml } from '../../../contract/embed-markup.ts';
import { EMBED_CARD_ATTRIBUTE, EMBEDS_ADDED_EVENT } from '../../../contract/embed-names.ts';
import CardActions from './CardActions.tsx';
import '../../styles/embed.css';

interface Props {
  card: ThreadCard & { permalink: string };
}

/**
 * A post shown through Threads' embed (decision 070), in a card's slot: Meta's blockquote with our
 * placeholder, which its script replaces with a frame of the post; below it what is ours, the
 * thread's page on this site and 'Save as gem'. Nothing of the post's copy is in it.
 */
export default function EmbedCard({ card }: Props) {
  const title = embedTitle(card.permalink);
  const page = hasThreadPage(card.id) ? threadPath(card.id) : null;
  // React rewrites the inside only when this string changes, and for one card it never does.
  const html = { __html: embedQuoteHtml(card) };
  // Cards shown after the page loaded (more of the grid, search results, another tab) are framed
  // too: the layout's script (threads-embed.ts) looks for them when told.
  useEffect(() => {
    document.dispatchEvent(new Event(EMBEDS_ADDED_EVENT));
  }, []);
  return (
    // Focusable by script only: when the placeholder that held the focus is replaced, the card takes it.
    <article
      className={`thread-card thread-card--catalogue thread-card--embed embed-card--${card.type}`}
      tabIndex={-1}
      {...{ [EMBED_CARD_ATTRIBUTE]: '' }}
    >
      {/* The frame tells who posted it; the heading keeps the page's outline the same before and after. */}
      <h2 className="visually-hidden">{title}</h2>
      {/* Written once and never reconciled: Meta's script replaces what is inside, maybe before the
          island hydrates (hence no warning for that). No user text goes in unescaped: embedQuoteHtml
          escapes the permalink, topic and date it writes. */}
      <div
        className="embed-card__frame"
        suppressHydrationWarning
        // eslint-disable-next-line no-restricted-syntax -- markup React must not own (decision 070)
        dangerouslySetInnerHTML={html}
      />
      <footer className="thread-card__meta">
        {page && (
          <a className="thread-card__page" href={page}>
            Thread page<span className="visually-hidden">: {title}</span>
          </a>
        )}
        <CardActions threadId={card.id} />
      </footer>
    </article>
  );
}
