// Build-time only: the digests' own feeds (decision 057), one item per published digest.
import type { RSSFeedItem, RSSOptions } from '@astrojs/rss';
import { digestPath } from '../../contract/digest.ts';
import {
  DIGEST_FEED_LIMIT,
  digestDays,
  digestName,
  type PublishedDigest,
} from '../../contract/digest-page.ts';
import { SITE } from '../../contract/site.ts';
import { itemTitle, type FeedLink, type JsonFeed } from './feeds.ts';

/** Where the digests and their feeds live. */
export const DIGESTS_PATH = '/digest/';
export const DIGEST_FEED_PATHS = { xml: '/digest/feed.xml', json: '/digest/feed.json' } as const;

const TITLE = `The weekly digest · ${SITE.title}`;
const DESCRIPTION = `Every week, the best design and UI threads curated on ${SITE.title}, with an editor's note.`;

// XML 1.0 cannot carry most control characters or lone surrogates (as in feeds.ts).
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const escapeMarkup = (text: string) =>
  text.replace(NOT_XML_CHAR, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The digests' feeds, as a page's head and the digest pages announce them. */
export const DIGEST_FEED_LINKS: FeedLink[] = [
  { type: 'application/rss+xml', title: `${TITLE} (RSS)`, href: DIGEST_FEED_PATHS.xml },
  { type: 'application/feed+json', title: `${TITLE} (JSON Feed)`, href: DIGEST_FEED_PATHS.json },
];

/** A digest in words: its note, then one line per thread ("Author: first words…"). */
function digestText(digest: PublishedDigest): string {
  const lines = digest.cards.map((card, index) => `${index + 1}. ${itemTitle(card)}`);
  return [digest.note, lines.join('\n')].filter(Boolean).join('\n\n');
}

/** The same as HTML for readers that show the item's description: the note, then a numbered list. */
function digestHtml(digest: PublishedDigest, site: URL): string {
  const items = digest.cards
    .map((card) => {
      const href = card.permalink ?? new URL(digestPath(digest.id), site).href;
      return `<li><a href="${escapeMarkup(href).replace(/"/g, '&quot;')}">${escapeMarkup(itemTitle(card))}</a></li>`;
    })
    .join('');
  return `${digest.note ? `<p>${escapeMarkup(digest.note)}</p>` : ''}<ol>${items}</ol>`;
}

const itemName = (digest: PublishedDigest) => `${digestName(digest)}: ${digestDays(digest)}`;

/** The `@astrojs/rss` options of the digests' RSS 2.0 feed, newest first. */
export function digestRssOptions(digests: readonly PublishedDigest[], site: URL): RSSOptions {
  const self = new URL(DIGEST_FEED_PATHS.xml, site).href;
  return {
    title: TITLE,
    description: DESCRIPTION,
    site: new URL(DIGESTS_PATH, site).href,
    trailingSlash: false,
    xmlns: { atom: 'http://www.w3.org/2005/Atom' },
    customData: `<language>en</language><atom:link href="${escapeMarkup(self)}" rel="self" type="application/rss+xml"/>`,
    items: digests.slice(0, DIGEST_FEED_LIMIT).map((digest): RSSFeedItem => ({
      title: itemName(digest),
      link: new URL(digestPath(digest.id), site).href,
      description: digestHtml(digest, site),
      pubDate: new Date(digest.published_at),
      customData: `<guid isPermaLink="false">digest-${digest.id}</guid>`,
    })),
  };
}

/** The digests' JSON Feed 1.1 document, newest first. */
export function digestJsonFeed(digests: readonly PublishedDigest[], site: URL): JsonFeed {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: TITLE,
    home_page_url: new URL(DIGESTS_PATH, site).href,
    feed_url: new URL(DIGEST_FEED_PATHS.json, site).href,
    description: DESCRIPTION,
    language: 'en',
    items: digests.slice(0, DIGEST_FEED_LIMIT).map((digest) => ({
      id: `digest-${digest.id}`,
      url: new URL(digestPath(digest.id), site).href,
      title: itemName(digest),
      content_text: digestText(digest),
      date_published: digest.published_at,
      authors: [{ name: SITE.title }],
    })),
  };
}
