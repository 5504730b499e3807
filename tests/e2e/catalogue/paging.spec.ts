import type { Page } from '@playwright/test';
import { CATALOGUE_PAGE_SIZE } from '../../../contract/catalogue-pages.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { expect, test, waitForHydration } from '../fixtures.ts';
import { cardTexts, servedManifest, servedPage, statusLine, threadCards } from './helpers.ts';

/** Every catalogue file the page asks for, by path, in order. */
function dataRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/data/')) paths.push(pathname);
  });
  return paths;
}

test('Show more appends the next page under the cards already read, fetching page files only', async ({
  page,
}) => {
  const requested = dataRequests(page);
  const { counts } = await servedManifest(page.request);
  const [all1, all2, text1, text2] = await Promise.all([
    servedPage(page.request, 'all', 1),
    servedPage(page.request, 'all', 2),
    servedPage(page.request, 'text', 1),
    servedPage(page.request, 'text', 2),
  ]);
  const contents = (...pages: { cards: { content: string }[] }[]) =>
    pages.flatMap((one) => one.cards.map((card) => card.content));

  await page.goto('/');
  await waitForHydration(page);
  await expect(threadCards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  expect(await cardTexts(page)).toEqual(contents(all1));
  // Mark a card of page 1: appending page 2 must keep that very element, not draw the grid anew.
  await threadCards(page)
    .first()
    .evaluate((card) => card.setAttribute('data-read', 'yes'));

  await page.getByRole('button', { name: 'Show more threads' }).click();
  await expect(threadCards(page)).toHaveCount(2 * CATALOGUE_PAGE_SIZE);
  await expect(statusLine(page)).toHaveText(`Showing ${2 * CATALOGUE_PAGE_SIZE} of ${counts.all} threads`);
  expect(await cardTexts(page)).toEqual(contents(all1, all2));
  await expect(page.locator('article.thread-card[data-read="yes"]')).toHaveCount(1);
  await expect(threadCards(page).first()).toHaveAttribute('data-read', 'yes');

  // The same on Text, whose first page is not in the HTML.
  await page.getByRole('button', { name: 'Text', exact: true }).click();
  await expect(statusLine(page)).toHaveText(`Showing ${CATALOGUE_PAGE_SIZE} of ${counts.text} text threads`);
  await page.getByRole('button', { name: 'Show more threads' }).click();
  await expect(statusLine(page)).toHaveText(
    `Showing ${2 * CATALOGUE_PAGE_SIZE} of ${counts.text} text threads`,
  );
  expect(await cardTexts(page)).toEqual(contents(text1, text2));

  // One small file per page: never a whole list, and never the first page the HTML already holds.
  expect(requested.filter((path) => path.startsWith('/data/pages/'))).toEqual([
    '/data/pages/all/2.json',
    '/data/pages/text/1.json',
    '/data/pages/text/2.json',
  ]);
  expect(requested.filter((path) => /\/threads-[a-z]+\.json$/.test(path))).toEqual([]);
});

test('a first load shows skeleton cards and the loading text until its page arrives', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/data/pages/text/1.json', async (route) => {
    await held;
    await route.continue();
  });
  const { counts } = await servedManifest(page.request);
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text', exact: true }).click();

  const skeletons = page.locator('.thread-card--skeleton');
  await expect(statusLine(page)).toHaveText(TEXTS.loadingThreads);
  await expect(skeletons.first()).toBeVisible();
  // Placeholders say nothing to assistive technology: the status line speaks for them.
  const count = await skeletons.count();
  expect(count).toBeGreaterThan(0);
  await expect(page.locator('[aria-hidden="true"] .thread-card--skeleton')).toHaveCount(count);
  // The All cards are gone, no Text card is there yet, and there is nothing more to show.
  await expect(threadCards(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show more threads' })).toHaveCount(0);

  release();
  await expect(statusLine(page)).toHaveText(`Showing ${CATALOGUE_PAGE_SIZE} of ${counts.text} text threads`);
  await expect(skeletons).toHaveCount(0);
  await expect(threadCards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
});
