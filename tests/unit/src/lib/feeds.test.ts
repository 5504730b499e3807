import { getRssString } from '@astrojs/rss';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { buildSampleCards } from '../../../../scripts/sample/catalogue.ts';
import {
  FEED_LIMIT,
  FEED_TITLE_MAX,
  buildJsonFeed,
  buildRssOptions,
  feedLinks,
  itemLink,
  itemTitle,
} from '../../../../src/lib/feeds.ts';

const site = new URL('https://curated.example/');
const now = new Date('2026-11-23T09:00:00Z');
const topic = { tag: 'DesignSystems', slug: 'designsystems' };

const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const RFC_822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function isAbsoluteHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** What a reader shows for an HTML description made only of text and these three entities. */
function unescapeMarkup(html: string): string {
  return html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function card(overrides: Partial<ThreadCard>): ThreadCard {
  const [sample] = buildSampleCards(1, now);
  if (!sample) throw new Error('no sample card');
  return { ...sample, ...overrides };
}

interface RssItem {
  title: string;
  link: string;
  guid: { '#text': string; '@_isPermaLink': string };
  pubDate?: string;
  description: string;
  category?: string | string[];
  'media:content'?: { '@_url': string; '@_medium': string };
}

/** Renders the feed as the endpoint does and parses it back, every value kept as text. */
async function renderRss(cards: ThreadCard[], feedTopic?: typeof topic) {
  const xml = await getRssString(buildRssOptions(cards, site, feedTopic));
  expect(xml).not.toMatch(NOT_XML_CHAR);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => name === 'item',
  }).parse(xml) as {
    rss: {
      '@_version': string;
      channel: { title: string; link: string; description: string; item: RssItem[] };
    };
  };
  return parsed.rss;
}

describe('JSON Feed', () => {
  test('follows the JSON Feed 1.1 rules', () => {
    const cards = buildSampleCards(30, now, 3);
    const feed = JSON.parse(JSON.stringify(buildJsonFeed(cards, site))) as Record<string, unknown> & {
      items: Record<string, unknown>[];
    };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(typeof feed.title).toBe('string');
    expect(feed.title).not.toBe('');
    expect(feed.home_page_url).toBe('https://curated.example/');
    expect(feed.feed_url).toBe('https://curated.example/feed.json');
    expect(feed.items).toHaveLength(30);
    const ids = feed.items.map((item) => item.id);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    feed.items.forEach((item, i) => {
      expect(item.content_text).toBe(cards[i]?.content);
      expect(item.date_published).toMatch(RFC_3339);
      expect(isAbsoluteHttpUrl(item.url), String(item.url)).toBe(true);
      if (item.image !== undefined) expect(isAbsoluteHttpUrl(item.image), String(item.image)).toBe(true);
      const authors = item.authors as { name: string; url?: string; avatar?: string }[];
      expect(authors[0]?.name).not.toBe('');
      for (const url of [authors[0]?.url, authors[0]?.avatar]) expect(isAbsoluteHttpUrl(url)).toBe(true);
      if (cards[i]?.topic_tag) expect(item.tags).toEqual([cards[i]?.topic_tag]);
    });
    expect(feed.items.some((item) => item.image !== undefined)).toBe(true);
  });

  test('carries the newest cards in order, at most FEED_LIMIT', () => {
    const cards = buildSampleCards(FEED_LIMIT + 20, now);
    const feed = buildJsonFeed(cards, site);
    expect(feed.items.map((item) => item.id)).toEqual(cards.slice(0, FEED_LIMIT).map((c) => c.id));
  });

  test('a topic feed points at the topic page and its own address', () => {
    const feed = buildJsonFeed([card({ topic_tag: 'DesignSystems' })], site, topic);
    expect(feed.title).toContain('DesignSystems');
    expect(feed.home_page_url).toBe('https://curated.example/topics/designsystems');
    expect(feed.feed_url).toBe('https://curated.example/topics/designsystems/feed.json');
  });

  test('leaves out the date and image a card does not have', () => {
    const undated = card({ image: null });
    delete undated.timestamp;
    const [item] = buildJsonFeed([undated], site).items;
    expect(item).toBeDefined();
    expect(item).not.toHaveProperty('date_published');
    expect(item).not.toHaveProperty('image');
  });
});

describe('item title and link', () => {
  test('the title is the author and the first words, on one line, cut with an ellipsis', () => {
    const long = card({
      author: 'Maren Holt',
      content: `Spacing\nscales ${'beat ad-hoc margins '.repeat(10)}`,
    });
    const title = itemTitle(long);
    expect(title.startsWith('Maren Holt: Spacing scales beat')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(FEED_TITLE_MAX);
    expect(title.endsWith('…')).toBe(true);
    const shown = title.slice(0, -1);
    const whole = `Maren Holt: ${long.content.replace(/\s+/g, ' ')}`;
    expect(whole.startsWith(shown)).toBe(true);
    expect(whole[shown.length]).toBe(' ');
    expect(title).not.toMatch(/\s…$|\n/);
  });

  test('a short post is the whole title; an empty one names the author', () => {
    expect(itemTitle(card({ author: 'Juno', content: 'Tinted fill won.' }))).toBe('Juno: Tinted fill won.');
    expect(itemTitle(card({ author: 'Juno', content: '  ' }))).toBe('Post by Juno');
  });

  test('the cut never splits an emoji', () => {
    const title = itemTitle(card({ author: 'A', content: '👩🏽‍💻'.repeat(40) }));
    expect(title.length).toBeLessThanOrEqual(FEED_TITLE_MAX);
    expect(title.replace(/^A: /, '').replace(/…$/, '').replaceAll('👩🏽‍💻', '')).toBe('');
  });

  test('the link is the permalink, else the topic page, else the home page', () => {
    const permalink = 'https://www.threads.com/@maren.makes/post/ABC123';
    expect(itemLink(card({ permalink }), site)).toBe(permalink);
    expect(itemLink(card({ topic_tag: 'UX Design' }), site)).toBe('https://curated.example/topics/ux-design');
    expect(itemLink(card({ topic_tag: null }), site)).toBe('https://curated.example/');
  });
});

describe('RSS', () => {
  test('has a channel and items with a non-permalink guid, RFC 822 dates and the topic', async () => {
    const cards = buildSampleCards(FEED_LIMIT + 5, now, 11);
    const rss = await renderRss(cards);
    expect(rss['@_version']).toBe('2.0');
    expect(rss.channel.title).toBe('Curated Threads');
    expect(rss.channel.link).toBe('https://curated.example');
    expect(rss.channel.description).not.toBe('');
    expect(rss.channel.item).toHaveLength(FEED_LIMIT);
    rss.channel.item.forEach((item, i) => {
      const source = cards[i];
      if (!source) throw new Error(`item ${i} has no card`);
      expect(item.guid).toEqual({ '#text': source.id, '@_isPermaLink': 'false' });
      expect(item.title).toBe(itemTitle(source));
      expect(isAbsoluteHttpUrl(item.link), item.link).toBe(true);
      expect(item.pubDate).toMatch(RFC_822);
      expect(new Date(String(item.pubDate)).getTime()).toBe(new Date(String(source.timestamp)).getTime());
      expect(item.description).not.toMatch(/[<>]/);
      expect(unescapeMarkup(item.description)).toBe(source.content);
      expect(item.category).toBe(source.topic_tag);
    });
  });

  test('an item with a picture carries it as Media RSS, by absolute URL; one without carries none', async () => {
    const [withImage, without] = (
      await renderRss([
        card({ type: 'image', image: '/api/media/42?a=1&b=2' }),
        card({ type: 'text', image: null }),
      ])
    ).channel.item;
    expect(withImage?.['media:content']).toEqual({
      '@_url': 'https://curated.example/api/media/42?a=1&b=2',
      '@_medium': 'image',
    });
    expect(without?.['media:content']).toBeUndefined();
  });

  test('the guid is the stored id as written, a UUID too', async () => {
    const id = '12345678-0000-4abc-8def-0123456789ab';
    const rss = await renderRss([card({ id })]);
    expect(rss.channel.item[0]?.guid).toEqual({ '#text': id, '@_isPermaLink': 'false' });
  });

  test('carries post text as text: no raw HTML, no characters XML cannot hold', async () => {
    const hostile = card({ author: 'Eve <b>', content: 'Fish & chips <script>alert(1)</script>\u0007 "ok"' });
    const [item] = (await renderRss([hostile])).channel.item;
    expect(item?.description).toBe('Fish &amp; chips &lt;script&gt;alert(1)&lt;/script&gt; "ok"');
    expect(item?.description).not.toContain('<');
    expect(item?.title).toBe('Eve <b>: Fish & chips <script>alert(1)</script> "ok"');
  });

  test('a topic feed links to the topic page', async () => {
    const rss = await renderRss([card({ topic_tag: 'DesignSystems' })], topic);
    expect(rss.channel.title).toContain('DesignSystems');
    expect(rss.channel.link).toBe('https://curated.example/topics/designsystems');
  });
});

test('pages announce the site feeds, and a topic page its own too', () => {
  expect(feedLinks().map((link) => [link.type, link.href])).toEqual([
    ['application/rss+xml', '/feed.xml'],
    ['application/feed+json', '/feed.json'],
  ]);
  const hrefs = feedLinks(topic).map((link) => link.href);
  expect(hrefs).toEqual([
    '/feed.xml',
    '/feed.json',
    '/topics/designsystems/feed.xml',
    '/topics/designsystems/feed.json',
  ]);
  expect(new Set(feedLinks(topic).map((link) => link.title)).size).toBe(4);
});
