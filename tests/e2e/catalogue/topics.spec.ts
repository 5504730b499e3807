import { CATALOGUE_PAGE_SIZE, topicListKey } from '../../../contract/catalogue-pages.ts';
import { topicPath } from '../../../contract/topics.ts';
import { expect, test, waitForHydration } from '../fixtures.ts';
import {
  cardTexts,
  servedManifest,
  servedPage,
  statusLine,
  threadCards,
  topicWithAtLeast,
  waitForTopicHydration,
} from './helpers.ts';

test('a topic page shows its own threads, a page at a time', async ({ page }) => {
  const topic = await topicWithAtLeast(page.request, 2 * CATALOGUE_PAGE_SIZE + 1);
  const list = topicListKey(topic.slug);
  const [first, second] = await Promise.all([
    servedPage(page.request, list, 1),
    servedPage(page.request, list, 2),
  ]);
  const tagLinks = threadCards(page).getByRole('link', { name: `#${topic.tag}`, exact: true });

  await page.goto(topicPath(topic.slug));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`#${topic.tag}`);
  await waitForTopicHydration(page);
  await expect(statusLine(page)).toHaveText(
    `Showing ${CATALOGUE_PAGE_SIZE} of ${topic.count} threads on #${topic.tag}`,
  );
  await expect(threadCards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  await expect(tagLinks).toHaveCount(CATALOGUE_PAGE_SIZE);
  for (const href of await tagLinks.evaluateAll((links) => links.map((link) => link.getAttribute('href')))) {
    expect(href).toBe(topicPath(topic.slug));
  }
  expect(await cardTexts(page)).toEqual(first.cards.map((card) => card.content));
  // A topic page has no filters and no search box: its list is the topic.
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toHaveCount(0);
  await expect(page.getByRole('searchbox', { name: 'Search threads' })).toHaveCount(0);

  const pageTwo = page.waitForResponse((response) =>
    new URL(response.url()).pathname.endsWith(`/data/pages/topics/${topic.slug}/2.json`),
  );
  await page.getByRole('button', { name: 'Show more threads' }).click();
  expect((await pageTwo).ok()).toBe(true);
  await expect(statusLine(page)).toHaveText(
    `Showing ${2 * CATALOGUE_PAGE_SIZE} of ${topic.count} threads on #${topic.tag}`,
  );
  await expect(tagLinks).toHaveCount(2 * CATALOGUE_PAGE_SIZE);
  expect(await cardTexts(page)).toEqual([...first.cards, ...second.cards].map((card) => card.content));
});

test('home links the topics; /topics lists every one of them', async ({ page }) => {
  const { topics } = await servedManifest(page.request);
  expect(topics.length).toBeGreaterThan(1);
  const topic = await topicWithAtLeast(page.request, 1);

  await page.goto('/');
  await waitForHydration(page);
  const nav = page.getByRole('navigation', { name: 'Topics' });
  const link = nav.locator(`a[href="${topicPath(topic.slug)}"]`);
  await expect(link).toContainText(`#${topic.tag}`);
  await expect(link).toContainText(String(topic.count));
  await link.click();
  await expect(page).toHaveURL(topicPath(topic.slug));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`#${topic.tag}`);
  // The topic bar marks the page the visitor is on.
  await expect(
    page.getByRole('navigation', { name: 'Topics' }).locator(`a[href="${topicPath(topic.slug)}"]`),
  ).toHaveAttribute('aria-current', 'page');

  await page.goto('/topics');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Topics');
  const listed = page.getByRole('main').locator('a[href^="/topics/"]');
  await expect(listed).toHaveCount(topics.length);
  for (const { tag, slug, count } of topics) {
    const entry = page.getByRole('main').locator(`a[href="${topicPath(slug)}"]`);
    await expect(entry).toContainText(`#${tag}`);
    await expect(entry).toContainText(`${count} ${count === 1 ? 'thread' : 'threads'}`);
  }
  await listed.first().click();
  const [biggest] = topics;
  if (!biggest) throw new Error('no topic');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`#${biggest.tag}`);
});
