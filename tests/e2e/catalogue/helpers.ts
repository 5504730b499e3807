import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { pageUrl, type CatalogueListKey, type CataloguePage } from '../../../contract/catalogue-pages.ts';
import type { Manifest } from '../../../contract/manifest.ts';
import type { CatalogueTopic } from '../../../contract/topics.ts';
import { LARGE_CATALOGUE, largeCatalogueCards } from '../../large-catalogue.ts';
import { expect, waitForHydration } from '../fixtures.ts';

// Shared by the 'catalogue' browser tests, which run against the 1,000-thread catalogue of
// tests/large-catalogue.ts. Expectations are read from the files the server serves, so they follow it.

/** The thread only a search (or 39 clicks on 'Show more') reaches: on page 40 of All. */
export const NEEDLE = (() => {
  const card = largeCatalogueCards()[LARGE_CATALOGUE.needlePosition];
  if (!card?.permalink || !card.timestamp || !card.topic_tag) {
    throw new Error('the needle card lacks a permalink, a time or a topic');
  }
  return { ...card, permalink: card.permalink, timestamp: card.timestamp, topic_tag: card.topic_tag };
})();

/** A word of the needle's text that no other thread of the catalogue holds. */
export const NEEDLE_WORD = 'Zeppelin';

/** The manifest the server serves now, with the fields the paged catalogue always has. */
export async function servedManifest(
  request: APIRequestContext,
): Promise<
  Manifest & { version: string; counts: NonNullable<Manifest['counts']>; topics: CatalogueTopic[] }
> {
  const response = await request.get('/data/manifest.json');
  expect(response.ok()).toBe(true);
  const manifest = (await response.json()) as Manifest;
  if (!manifest.version || !manifest.counts || !manifest.topics) {
    throw new Error('the served manifest lacks its version, counts or topics');
  }
  return { ...manifest, version: manifest.version, counts: manifest.counts, topics: manifest.topics };
}

/** One page file as the server serves it. */
export async function servedPage(
  request: APIRequestContext,
  list: CatalogueListKey,
  page: number,
): Promise<CataloguePage> {
  const response = await request.get(pageUrl(list, page));
  expect(response.ok()).toBe(true);
  return (await response.json()) as CataloguePage;
}

/** The first topic with at least `minimum` threads (most threads first, as the manifest lists them). */
export async function topicWithAtLeast(request: APIRequestContext, minimum: number): Promise<CatalogueTopic> {
  const topic = (await servedManifest(request)).topics.find(({ count }) => count >= minimum);
  if (!topic) throw new Error(`no topic of the large catalogue has ${minimum} threads`);
  return topic;
}

/** The thread cards shown (never the skeletons). */
export function threadCards(page: Page): Locator {
  return page.locator('article.thread-card');
}

/** The text of every card shown, in order. */
export function cardTexts(page: Page): Promise<string[]> {
  return threadCards(page).locator('.thread-card__content').allTextContents();
}

/** The grid's status line (the search results have their own, also a status). */
export function statusLine(page: Page): Locator {
  return page.getByRole('status');
}

/** Wakes a topic page's island and waits until it has hydrated: it has no filters, but 'Show more' appears. */
export async function waitForTopicHydration(page: Page): Promise<void> {
  // The grid hydrates on first use (decision 049): a visitor's pointer over its heading wakes it.
  await waitForHydration(page);
  await expect(page.getByRole('button', { name: 'Show more threads' })).toBeEnabled();
}
