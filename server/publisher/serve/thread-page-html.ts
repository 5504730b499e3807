import { calendarDate } from '../../../contract/calendar-date.ts';
import { threadsProfileUrl } from '../../../contract/profile-rules.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { SITE } from '../../../contract/site.ts';
import { socialImagePath } from '../../../contract/social-image.ts';
import { threadPath, THREAD_SLOTS as S } from '../../../contract/thread-page.ts';
import { topicPath } from '../../../contract/topics.ts';
import { embedTitle } from '../../../contract/threads-embed.ts';
import { escapeHtml, escapeUrl } from '../../http/html-escape.ts';
import type { ThreadPageData } from '../../services/thread-pages/thread-page.ts';
import { embedArticleHtml, embedPageDescription, embedPageTitle } from './thread-embed-html.ts';
import { EMBED_ARTICLE_SLOT, fillSlots, HEAD_SLOTS, type ThreadTemplate } from './thread-template.ts';

/** At most `max` characters of the text on one line, cut at a word with an ellipsis. */
export function excerpt(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const word = cut.lastIndexOf(' ');
  return `${(word > max / 2 ? cut.slice(0, word) : cut).trimEnd()}…`;
}

const threadsUsername = (card: ThreadCard) => (card.handle.startsWith('@') ? card.handle.slice(1) : null);

function relatedItem(template: ThreadTemplate, card: ThreadCard): string {
  const date = card.timestamp ?? '';
  // A post shown through the embed is named by its permalink alone (decision 070): no excerpt.
  const embed = card.display === 'embed';
  return fillSlots(template.parts['related-item'], {
    [S.relatedUrl]: escapeHtml(threadPath(card.id)),
    [S.relatedAuthor]: escapeHtml(embed ? embedTitle(card.permalink) : card.author),
    [S.relatedExcerpt]: embed ? '' : escapeHtml(excerpt(card.content, 140) || card.handle),
    [S.relatedDateIso]: escapeHtml(date),
    [S.relatedDate]: date ? escapeHtml(calendarDate(date)) : '',
  });
}

/**
 * The page of one thread: the template filled with its values, each escaped for its place (text,
 * attribute, URL; decision 039), absolute addresses from the public origin (`publicUrl`).
 */
export function threadPageHtml(template: ThreadTemplate, data: ThreadPageData, publicUrl: URL): string {
  const { card, topic, related } = data;
  const absolute = (path: string) => escapeHtml(new URL(path, publicUrl).href);
  const topicValues = topic
    ? { [S.topicTag]: escapeHtml(topic.tag), [S.topicUrl]: escapeHtml(topicPath(topic.slug)) }
    : {};
  const shared = (title: string) => ({
    [S.relatedPart]:
      topic && related.length > 0
        ? fillSlots(template.parts.related, {
            ...topicValues,
            [S.relatedItems]: related.map((other) => relatedItem(template, other)).join(''),
          })
        : '',
    [HEAD_SLOTS.canonical]: absolute(threadPath(card.id)),
    [HEAD_SLOTS.ogUrl]: absolute(threadPath(card.id)),
    [HEAD_SLOTS.ogType]: 'article',
    // Its own picture, drawn by the server (decision 048): never Meta's picture address, which
    // expires within hours while previews are kept for days.
    [HEAD_SLOTS.ogImage]: absolute(socialImagePath('thread', card.id)),
    [HEAD_SLOTS.ogImageAlt]: escapeHtml(`${SITE.title}: ${title}`),
  });
  if (card.display === 'embed') {
    // Decision 070: the page carries no copy of the post; Threads' embed shows it. Only the
    // embed's own article is filled: the template's, with the post's slots, is not in this page.
    const title = embedPageTitle(card, topic);
    return fillSlots(template.embedPage, {
      [S.title]: escapeHtml(title),
      [S.description]: escapeHtml(embedPageDescription(card, topic)),
      [EMBED_ARTICLE_SLOT]: embedArticleHtml(card),
      ...shared(title),
    });
  }
  const username = threadsUsername(card);
  const text = card.content.trim();
  const image = card.image ? escapeUrl(card.image) : null;
  const date = card.timestamp ?? '';
  const title = `${card.author}${text ? `: “${excerpt(text, 60)}”` : ' on Threads'}`;
  return fillSlots(template.page, {
    [S.title]: escapeHtml(title),
    [S.description]: escapeHtml(excerpt(text, 200) || `A thread by ${card.handle}, curated from Threads.`),
    [S.author]: escapeHtml(card.author),
    [S.handle]: escapeHtml(card.handle),
    [S.avatar]: escapeHtml(card.avatar),
    // A submitted link whose author is unknown has no profile: the name links to the post itself.
    [S.profileUrl]: escapeUrl(username ? threadsProfileUrl(username) : (card.permalink ?? '/')) ?? '/',
    [S.text]: escapeHtml(text),
    [S.dateIso]: escapeHtml(date),
    [S.date]: date ? escapeHtml(calendarDate(date)) : '',
    [S.permalink]: escapeUrl(card.permalink ?? '') ?? '/',
    [S.imagePart]: image
      ? fillSlots(template.parts.image, {
          [S.imageUrl]: image,
          [S.imageAlt]: escapeHtml(`Picture attached to the post by ${card.handle}`),
        })
      : '',
    [S.topicPart]: topic ? fillSlots(template.parts.topic, topicValues) : '',
    ...shared(title),
  });
}
