import { calendarDate } from '../../../contract/calendar-date.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { embedAttributes, embedTitle, handleInPermalink } from '../../../contract/threads-embed.ts';
import { TEXTS } from '../../../contract/texts.ts';
import type { CatalogueTopic } from '../../../contract/topics.ts';
import { topicPath } from '../../../contract/topics.ts';
import { escapeHtml, escapeUrl } from '../../http/html-escape.ts';

/**
 * The classes the site's loader (src/lib/threads-embed.ts) looks for: the placeholder inside each
 * embed blockquote, and its button that loads Threads' script.
 */
export const EMBED_PLACEHOLDER_CLASS = 'threads-embed-placeholder';
export const EMBED_SHOW_CLASS = 'threads-embed-show';
export const SHOW_POST = 'Show post';
const NOTE = 'Threads shows this post: showing it loads it from Threads.';

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
 * template's: the blockquote Threads' script turns into the post, holding a placeholder until it
 * does (who, the topic, the date, the post on Threads, a button that shows it). Nothing of the
 * post's copy.
 */
export function embedArticleHtml(card: ThreadCard, topic: Topic): string {
  const title = embedTitle(card.permalink);
  const handle = handleInPermalink(card.permalink);
  const permalink = card.permalink ? escapeUrl(card.permalink) : null;
  const date = card.timestamp ?? '';
  const meta = [
    date ? `<time datetime="${escapeHtml(date)}">${escapeHtml(calendarDate(date))}</time>` : '',
    topic
      ? `<a class="thread-page__topic" href="${escapeHtml(topicPath(topic.slug))}">#${escapeHtml(topic.tag)}</a>`
      : '',
  ].join(' ');
  const placeholder =
    `<div class="${EMBED_PLACEHOLDER_CLASS}">` +
    (handle ? `<p class="${EMBED_PLACEHOLDER_CLASS}__handle">${escapeHtml(handle)}</p>` : '') +
    `<p class="thread-page__meta">${meta}</p>` +
    (permalink
      ? `<p class="${EMBED_PLACEHOLDER_CLASS}__note">${escapeHtml(NOTE)}</p>` +
        `<p class="${EMBED_PLACEHOLDER_CLASS}__actions"><button type="button" class="${EMBED_SHOW_CLASS}">${SHOW_POST}</button> ` +
        `<a class="thread-page__source" href="${permalink}" rel="noopener noreferrer">${escapeHtml(TEXTS.viewOnThreads)}</a></p>`
      : '') +
    '</div>';
  // A card without a usable permalink has nothing to embed: the placeholder alone.
  const embed =
    permalink && card.permalink
      ? `<blockquote ${Object.entries(embedAttributes(card.permalink))
          .map(([name, value]) => `${name}="${escapeHtml(value)}"`)
          .join(' ')}>${placeholder}</blockquote>`
      : placeholder;
  // The template's article is labelled by this heading's id.
  return `<h1 class="thread-page__author" id="thread-author">${escapeHtml(title)}</h1>${embed}`;
}
