// Build-time only: the RSS 2.0 and JSON Feed 1.1 versions of the catalogue and of each topic.
import type { RSSFeedItem, RSSOptions } from '@astrojs/rss';
import { threadsProfileUrl } from '../../contract/profile-rules.ts';
import { SITE } from '../../contract/site.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { hasThreadPage, threadPath } from '../../contract/thread-page.ts';
import { embedTitle } from '../../contract/threads-embed.ts';
import { topicPath, topicSlug } from '../../contract/topics.ts';
import { isEmbedCard } from '../../contract/embed-markup.ts';

/** How many of the newest threads a feed carries. */
export const FEED_LIMIT = 50;

/** Longest item title, in UTF-16 code units, ellipsis included. */
export const FEED_TITLE_MAX = 90;

/** The topic a feed is about; none means the whole catalogue. */
export interface FeedTopic {
  tag: string;
  slug: string;
}

/** A `<link rel="alternate">` a page's head carries. */
export interface FeedLink {
  type: 'application/rss+xml' | 'application/feed+json';
  title: string;
  href: string;
}

/** A JSON Feed 1.1 document (https://jsonfeed.org/version/1.1), the fields we fill. */
export interface JsonFeed {
  version: 'https://jsonfeed.org/version/1.1';
  title: string;
  home_page_url: string;
  feed_url: string;
  description: string;
  language: string;
  items: JsonFeedItem[];
}

/** One item of a JSON Feed. */
export interface JsonFeedItem {
  id: string;
  url: string;
  title: string;
  content_text: string;
  date_published?: string;
  authors: { name: string; url?: string; avatar?: string }[];
  tags?: string[];
  image?: string;
}

// XML 1.0 cannot carry most control characters or lone surrogates: one in a post would make the whole feed invalid.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}

function oneLine(text: string): string {
  return xmlSafe(text).replace(/\s+/g, ' ').trim();
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeMarkup(xmlSafe(text)).replace(/"/g, '&quot;');
}

/** Cuts at a grapheme boundary, preferably a word break, so no emoji or accent is split. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = '';
  for (const { segment } of graphemes.segment(text)) {
    if (cut.length + segment.length > max - 1) break;
    cut += segment;
  }
  const space = cut.lastIndexOf(' ');
  if (space > max / 2) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,.;:!?–—-]+$/u, '')}…`;
}

/** Throws when the build has no `site`: feeds need absolute URLs. */
export function requireSite(site: URL | undefined): URL {
  if (!site) throw new Error('Feeds need an absolute site URL: set PUBLIC_URL.');
  return site;
}

/** The path of a feed: `/feed.xml`, `/topics/{slug}/feed.json`... */
export function feedPath(format: 'xml' | 'json', topic?: FeedTopic): string {
  return `${topic ? `${topicPath(topic.slug)}/` : '/'}feed.${format}`;
}

/** The page a feed mirrors: the home page, or the topic's page. */
export function feedHomePath(topic?: FeedTopic): string {
  return topic ? topicPath(topic.slug) : '/';
}

/** The feed's title: the site's name, with the topic tag in front for a topic feed. */
export function feedTitle(topic?: FeedTopic): string {
  return topic ? `${xmlSafe(topic.tag)} · ${SITE.title}` : SITE.title;
}

function feedDescription(topic?: FeedTopic): string {
  return topic
    ? `The newest curated ${xmlSafe(topic.tag)} threads on ${SITE.title}.`
    : `The newest threads on ${SITE.title}. ${SITE.description}`;
}

/** The feeds a page's head announces: the site's always, and the topic's on its own page. */
export function feedLinks(topic?: FeedTopic): FeedLink[] {
  const scopes = topic ? [undefined, topic] : [undefined];
  return scopes.flatMap((scope) => [
    { type: 'application/rss+xml', title: `${feedTitle(scope)} (RSS)`, href: feedPath('xml', scope) },
    {
      type: 'application/feed+json',
      title: `${feedTitle(scope)} (JSON Feed)`,
      href: feedPath('json', scope),
    },
  ]);
}

/**
 * "Author: first words of the post…", plain text on one line, at most FEED_TITLE_MAX long; for a post
 * shown through Threads' embed, only whose it is ("Post by @name on Threads").
 */
export function itemTitle(card: ThreadCard): string {
  if (isEmbedCard(card)) return truncate(oneLine(embedTitle(card.permalink)), FEED_TITLE_MAX);
  const author = oneLine(card.author);
  const text = oneLine(card.content);
  return truncate(text === '' ? `Post by ${author}` : `${author}: ${text}`, FEED_TITLE_MAX);
}

/** The post on Threads when the card has its permalink, else its topic page or our home page. */
export function itemLink(card: ThreadCard, site: URL): string {
  if (card.permalink) return card.permalink;
  const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
  return new URL(slug ? topicPath(slug) : '/', site).href;
}

function isoDate(timestamp: string | undefined): string | undefined {
  const date = timestamp ? new Date(timestamp) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

/** Our own words about a post shown through Threads' embed: where it is, never what it says. */
interface EmbedItemWords {
  title: string;
  topic: { tag: string; url: string } | null;
  page: string | null;
  permalink: string;
}

function embedItemWords(card: ThreadCard & { permalink: string }, site: URL): EmbedItemWords {
  const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
  return {
    title: oneLine(embedTitle(card.permalink)),
    topic:
      slug && card.topic_tag
        ? { tag: oneLine(card.topic_tag), url: new URL(topicPath(slug), site).href }
        : null,
    page: hasThreadPage(card.id) ? new URL(threadPath(card.id), site).href : null,
    permalink: card.permalink,
  };
}

function embedItemText(words: EmbedItemWords): string {
  return [
    `${words.title}${words.topic ? `, curated in #${words.topic.tag}` : ''}.`,
    words.page && `Thread page: ${words.page}`,
    `On Threads: ${words.permalink}`,
  ]
    .filter(Boolean)
    .join('\n');
}

function embedItemHtml(words: EmbedItemWords): string {
  const link = (href: string, text: string) =>
    `<a href="${escapeAttribute(href)}">${escapeMarkup(xmlSafe(text))}</a>`;
  const topic = words.topic ? `, curated in ${link(words.topic.url, `#${words.topic.tag}`)}` : '';
  const links = [words.page && link(words.page, 'Thread page'), link(words.permalink, 'View on Threads')];
  return `<p>${escapeMarkup(words.title)}${topic}.</p><p>${links.filter(Boolean).join(' · ')}</p>`;
}

function jsonItem(card: ThreadCard, site: URL): JsonFeedItem {
  const published = isoDate(card.timestamp);
  const handle = card.handle.replace(/^@/, '');
  // An embedded post's item carries none of its copy: no text, no picture, no avatar.
  const embed = isEmbedCard(card) ? embedItemWords(card, site) : null;
  return {
    id: card.id,
    url: itemLink(card, site),
    title: itemTitle(card),
    content_text: embed ? embedItemText(embed) : card.content,
    ...(published && { date_published: published }),
    authors: [
      {
        name: card.author,
        ...(handle && { url: threadsProfileUrl(handle) }),
        ...(!embed && { avatar: new URL(card.avatar, site).href }),
      },
    ],
    ...(card.topic_tag && { tags: [card.topic_tag] }),
    ...(card.image && !embed && { image: new URL(card.image, site).href }),
  };
}

/** The JSON Feed 1.1 document of the newest FEED_LIMIT cards (newest first), for the site or a topic. */
export function buildJsonFeed(cards: readonly ThreadCard[], site: URL, topic?: FeedTopic): JsonFeed {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: feedTitle(topic),
    home_page_url: new URL(feedHomePath(topic), site).href,
    feed_url: new URL(feedPath('json', topic), site).href,
    description: feedDescription(topic),
    language: 'en',
    items: cards.slice(0, FEED_LIMIT).map((card) => jsonItem(card, site)),
  };
}

function rssItem(card: ThreadCard, site: URL): RSSFeedItem {
  const published = isoDate(card.timestamp);
  const embed = isEmbedCard(card) ? embedItemWords(card, site) : null;
  return {
    title: itemTitle(card),
    link: itemLink(card, site),
    // Readers take the description as HTML: escaped, the post's text shows as written and runs no markup.
    description: embed ? embedItemHtml(embed) : escapeMarkup(xmlSafe(card.content)),
    ...(published && { pubDate: new Date(published) }),
    ...(card.topic_tag && { categories: [oneLine(card.topic_tag)] }),
    // @astrojs/rss makes the link the guid; a permalink can be missing or change, the card id cannot.
    // The picture as Media RSS (no length or type to declare: /api/media answers with the current one).
    customData: `<guid isPermaLink="false">${escapeMarkup(xmlSafe(card.id))}</guid>${
      card.image && !embed
        ? `<media:content url="${escapeAttribute(new URL(card.image, site).href)}" medium="image"/>`
        : ''
    }`,
  };
}

/** The `@astrojs/rss` options of the RSS 2.0 feed of the newest FEED_LIMIT cards, for the site or a topic. */
export function buildRssOptions(cards: readonly ThreadCard[], site: URL, topic?: FeedTopic): RSSOptions {
  const self = new URL(feedPath('xml', topic), site).href;
  return {
    title: feedTitle(topic),
    description: feedDescription(topic),
    site: new URL(feedHomePath(topic), site).href,
    trailingSlash: false,
    xmlns: { atom: 'http://www.w3.org/2005/Atom', media: 'http://search.yahoo.com/mrss/' },
    customData: `<language>en</language><atom:link href="${escapeMarkup(self)}" rel="self" type="application/rss+xml"/>`,
    items: cards.slice(0, FEED_LIMIT).map((card) => rssItem(card, site)),
  };
}
