import { embedQuoteHtml, isEmbedCard } from '../../../contract/embed-markup.ts';
import { EMBED_CARD_ATTRIBUTE } from '../../../contract/embed-names.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { embedTitle, handleInPermalink } from '../../../contract/threads-embed.ts';
import type { CatalogueTopic } from '../../../contract/topics.ts';
import { escapeHtml } from '../../http/html-escape.ts';

type Topic = Pick<CatalogueTopic, 'tag' | 'slug'> | null;

/** The page title of a post shown through the embed: who, from its permalink, and its topic; never its text. */
export function embedPageTitle(card: ThreadCard, topic: Topic): string {
  const title = embedTitle(card.permalink);
  return topic ? `${title} · #${topic.tag}` : title;
}

/** Its meta description: the same facts in a sentence. */
export function embedPageDescription(card: ThreadCard, topic: Topic): string {
  const handle = handleInPermalink(card.permalink);
  return `A post${handle ? ` by ${handle}` : ''}${topic ? ` on #${topic.tag}` : ''}, curated from Threads.`;
}

/**
 * What the article of a post shown through Threads' embed holds (decision 070), instead of the
 * template's: the same blockquote and placeholder as a card of the grid (contract/embed-markup.ts),
 * in a box that takes the focus when Meta's script replaces the placeholder. Nothing of the post's
 * copy. A card without a permalink has nothing to embed: its title alone.
 */
export function embedArticleHtml(card: ThreadCard): string {
  const title = embedTitle(card.permalink);
  // The template's article is labelled by this heading's id.
  const heading = `<h1 class="thread-page__author" id="thread-author">${escapeHtml(title)}</h1>`;
  if (!isEmbedCard(card)) return heading;
  return `${heading}<div class="embed-card__frame thread-page__embed" tabindex="-1" ${EMBED_CARD_ATTRIBUTE}>${embedQuoteHtml(card)}</div>`;
}
