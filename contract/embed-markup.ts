// The HTML of a Threads embed (decision 070): Meta's blockquote holding our placeholder. A string, so
// that React (dangerouslySetInnerHTML) and Astro (set:html) write it once and never reconcile it:
// Meta's script replaces the blockquote with a frame of the post.
import { calendarDate } from './calendar-date.ts';
import { threadsProfileUrl } from './profile-rules.ts';
import { TEXTS } from './texts.ts';
import type { ThreadCard } from './thread-card.ts';
import { embedAttributes, embedTitle, handleInPermalink } from './threads-embed.ts';
import { topicPath, topicSlug } from './topics.ts';
import { EMBED_SHOW_ATTRIBUTE } from './embed-names.ts';
import { escapeHtml } from './html-escape.ts';

/** What the placeholder shows: nothing of the post's copy, only its address and our own facts. */
export type EmbedPost = Pick<ThreadCard, 'timestamp' | 'topic_tag'> & { permalink: string };

/** Whether a card is shown through Threads' embed (it needs the post's address for that). */
export function isEmbedCard(card: ThreadCard): card is ThreadCard & { permalink: string } {
  return card.display === 'embed' && card.permalink !== undefined;
}

function attributes(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
}

/**
 * The blockquote Meta's script looks for, with the placeholder shown until it runs (and for good
 * without JavaScript): who posted it (from the permalink), when, its topic, 'Show post' and
 * 'View on Threads'. The same card always gives the same string, so a re-render changes nothing.
 */
export function embedQuoteHtml(post: EmbedPost): string {
  const handle = handleInPermalink(post.permalink);
  const title = embedTitle(post.permalink);
  // Screen readers meet several posts' buttons and links on a page: each says whose post it is.
  const whose = `<span class="visually-hidden">: ${escapeHtml(title)}</span>`;
  const who = handle
    ? `<a href="${escapeHtml(threadsProfileUrl(handle.slice(1)))}" rel="noopener noreferrer">${escapeHtml(handle)}</a>`
    : 'A post';
  const slug = post.topic_tag ? topicSlug(post.topic_tag) : null;
  const topic =
    slug && post.topic_tag
      ? `<a class="embed-card__topic" href="${escapeHtml(topicPath(slug))}">#${escapeHtml(post.topic_tag)}</a>`
      : '';
  const date = post.timestamp
    ? `<time class="embed-card__date" datetime="${escapeHtml(post.timestamp)}">${escapeHtml(calendarDate(post.timestamp))}</time>`
    : '';
  return [
    `<blockquote${attributes(embedAttributes(post.permalink))}>`,
    '<div class="embed-card__placeholder">',
    '<div class="embed-card__byline">',
    // Decorative: the words beside it say whose post it is. No picture of theirs is ours to show.
    `<span class="embed-card__avatar" aria-hidden="true">${escapeHtml(handle ? (handle[1] ?? '@') : '@')}</span>`,
    '<div class="embed-card__who">',
    `<p class="embed-card__name">${who} <span class="embed-card__on">on Threads</span></p>`,
    topic,
    '</div>',
    date,
    '</div>',
    '<p class="embed-card__note">This post is shown from Threads.</p>',
    '<div class="embed-card__actions">',
    `<button type="button" class="button embed-card__show" ${EMBED_SHOW_ATTRIBUTE}>Show post${whose}</button>`,
    `<a class="embed-card__link" href="${escapeHtml(post.permalink)}" rel="noopener noreferrer">${escapeHtml(TEXTS.viewOnThreads)}${whose}</a>`,
    '</div>',
    '</div>',
    '</blockquote>',
  ].join('');
}
