import type { APIRequestContext, Page } from '@playwright/test';
import { XMLParser } from 'fast-xml-parser';
import { topicPath } from '../../../contract/topics.ts';
import { expect, test } from '../fixtures.ts';
import { servedManifest, servedPage, threadCards, topicWithAtLeast } from './helpers.ts';

/** What a feed carries: the newest threads, at most this many. */
const FEED_SIZE = 50;

interface RssItem {
  title: string[];
  link: string[];
  guid: { '#text': string; '@_isPermaLink'?: string }[];
  pubDate: string[];
  category?: string[];
  'media:content'?: { '@_url': string; '@_medium': string }[];
}

interface JsonFeed {
  version: string;
  title: string;
  items: { id: string; url: string; date_published?: string; tags?: string[] }[];
}

/** The address of the page's one `<link rel="alternate">` of `type` for the feed at `pathname`. */
async function alternate(page: Page, type: string, pathname: string): Promise<string> {
  const hrefs = await page
    .locator(`head link[rel="alternate"][type="${type}"]`)
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  const matching = hrefs.filter((href) => new URL(href, page.url()).pathname === pathname);
  expect(matching).toHaveLength(1);
  return new URL(matching[0] ?? '', page.url()).href;
}

async function fetchRss(request: APIRequestContext, href: string): Promise<RssItem[]> {
  const response = await request.get(href);
  expect(response.ok()).toBe(true);
  expect(response.headers()['content-type']).toMatch(/xml/);
  // Every child is read as a list, so an item with two guids (or none) shows.
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    jPath: true,
    isArray: (_name, path, _leaf, attribute) =>
      !attribute && (String(path) === 'rss.channel.item' || String(path).startsWith('rss.channel.item.')),
  });
  const document = parser.parse(await response.text()) as {
    rss?: { '@_version'?: string; channel?: { item?: RssItem[] } };
  };
  expect(document.rss?.['@_version']).toBe('2.0');
  return document.rss?.channel?.item ?? [];
}

async function fetchJsonFeed(request: APIRequestContext, href: string): Promise<JsonFeed> {
  const response = await request.get(href);
  expect(response.ok()).toBe(true);
  return (await response.json()) as JsonFeed;
}

function newestFirst(dates: number[]): boolean {
  return dates.every(
    (date, index) => !Number.isNaN(date) && (index === 0 || date <= (dates[index - 1] ?? 0)),
  );
}

test('home announces RSS and JSON feeds of the newest 50 threads, newest first', async ({ page }) => {
  await page.goto('/');
  const rssHref = await alternate(page, 'application/rss+xml', '/feed.xml');
  const jsonHref = await alternate(page, 'application/feed+json', '/feed.json');
  // The home page announces the site's feeds only, and shows them too.
  await expect(page.locator('head link[rel="alternate"]')).toHaveCount(2);
  const subscribe = page.locator('main p.subscribe');
  await expect(subscribe).toContainText('Follow Curated Threads in a feed reader:');
  await expect(subscribe.getByRole('link', { name: 'RSS', exact: true })).toHaveAttribute(
    'href',
    '/feed.xml',
  );
  await expect(subscribe.getByRole('link', { name: 'JSON Feed' })).toHaveAttribute('href', '/feed.json');
  const newest = (await servedPage(page.request, 'all', 1)).cards[0];
  if (!newest) throw new Error('the catalogue is empty');
  await expect(threadCards(page).first()).toContainText(newest.content);

  const items = await fetchRss(page.request, rssHref);
  expect(items).toHaveLength(FEED_SIZE);
  // An item with a picture carries it (Media RSS), as an absolute address this server answers.
  const pictured = items.find((item) => item['media:content']);
  const picture = pictured?.['media:content']?.[0]?.['@_url'] ?? '';
  expect(picture).toMatch(/^https?:\/\//);
  expect((await page.request.get(picture, { maxRedirects: 0 })).status()).toBeLessThan(400);
  for (const item of items) {
    expect(item.guid).toHaveLength(1);
    expect(item.title).toHaveLength(1);
    expect(item.link).toHaveLength(1);
  }
  expect(items[0]?.guid[0]?.['#text']).toBe(newest.id);
  expect(items[0]?.guid[0]?.['@_isPermaLink']).toBe('false');
  expect(newestFirst(items.map((item) => Date.parse(item.pubDate[0] ?? '')))).toBe(true);
  expect(new Set(items.map((item) => item.guid[0]?.['#text'])).size).toBe(FEED_SIZE);

  const feed = await fetchJsonFeed(page.request, jsonHref);
  expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
  expect(feed.items).toHaveLength(FEED_SIZE);
  expect(feed.items[0]?.id).toBe(newest.id);
  expect(newestFirst(feed.items.map((item) => Date.parse(item.date_published ?? '')))).toBe(true);
  // Both feeds carry the same threads in the same order.
  expect(feed.items.map((item) => item.id)).toEqual(items.map((item) => item.guid[0]?.['#text']));
});

test('a topic page announces its own feeds, and every item in them is on that topic', async ({ page }) => {
  const topic = await topicWithAtLeast(page.request, 1);
  const { topics } = await servedManifest(page.request);
  expect(topics.map((one) => one.slug)).toContain(topic.slug);

  await page.goto(topicPath(topic.slug));
  // The site's feeds, and the topic's; the page shows the topic's.
  await expect(page.locator('head link[rel="alternate"]')).toHaveCount(4);
  await expect(
    page.locator('main p.subscribe').getByRole('link', { name: 'RSS', exact: true }),
  ).toHaveAttribute('href', `${topicPath(topic.slug)}/feed.xml`);
  await alternate(page, 'application/rss+xml', '/feed.xml');
  await alternate(page, 'application/feed+json', '/feed.json');
  const rssHref = await alternate(page, 'application/rss+xml', `${topicPath(topic.slug)}/feed.xml`);
  const jsonHref = await alternate(page, 'application/feed+json', `${topicPath(topic.slug)}/feed.json`);
  const expected = Math.min(FEED_SIZE, topic.count);

  const items = await fetchRss(page.request, rssHref);
  expect(items).toHaveLength(expected);
  for (const item of items) expect(item.category).toContain(topic.tag);

  const feed = await fetchJsonFeed(page.request, jsonHref);
  expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
  expect(feed.items).toHaveLength(expected);
  for (const item of feed.items) expect(item.tags).toContain(topic.tag);
  const first = (await servedPage(page.request, `topics/${topic.slug}`, 1)).cards[0];
  expect(feed.items[0]?.id).toBe(first?.id);
  expect(items[0]?.guid[0]?.['#text']).toBe(first?.id);
});

test('the subscribe link opens the feed page: its addresses to copy and the threads it carries, in HTML', async ({
  page,
}) => {
  await page.goto('/');
  await page
    .locator('main p.subscribe')
    .getByRole('link', { name: /in a feed reader/ })
    .click();
  await expect(page).toHaveURL(/\/feed\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Follow Curated Threads in a feed reader');
  // The addresses as a reader needs them: absolute, on this site.
  const codes = await page.locator('.feed-page__addresses code').allTextContents();
  expect(codes).toEqual([new URL('/feed.xml', page.url()).href, new URL('/feed.json', page.url()).href]);
  // The same threads as the RSS file, in its order, each leading where the item's link does.
  const items = await fetchRss(page.request, '/feed.xml');
  const links = page.locator('.feed-page__items > li > a');
  await expect(links).toHaveCount(items.length);
  expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).toEqual(
    items.map((item) => item.link[0]),
  );
  await expect(links.first()).toHaveText(items[0]?.title[0] ?? '');
  // Announced in the head like any page of the catalogue, so a reader pointed at it finds the feeds.
  await alternate(page, 'application/rss+xml', '/feed.xml');
});

test("a topic's feed page carries only that topic's threads; an unknown topic has none", async ({ page }) => {
  const topic = await topicWithAtLeast(page.request, 1);
  await page.goto(topicPath(topic.slug));
  await page
    .locator('main p.subscribe')
    .getByRole('link', { name: /in a feed reader/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`${topicPath(topic.slug)}/feed/$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Follow #${topic.tag} in a feed reader`);
  const items = await fetchRss(page.request, `${topicPath(topic.slug)}/feed.xml`);
  await expect(page.locator('.feed-page__items > li')).toHaveCount(Math.min(FEED_SIZE, topic.count));
  expect(items).toHaveLength(Math.min(FEED_SIZE, topic.count));
  expect((await page.request.get('/topics/no-such-topic-here/feed/')).status()).toBe(404);
});
