import type { Page } from '@playwright/test';
import { CATALOGUE_PAGE_SIZE } from '../../../contract/catalogue-pages.ts';
import type { ThreadFilter } from '../../../contract/thread-filter.ts';
import { expect, test, waitForHydration } from '../fixtures.ts';
import { cardTexts, servedManifest, servedPage, statusLine, threadCards } from './helpers.ts';

const LABELS = { all: 'All', text: 'Text', images: 'Images' } as const;
const NOUNS = { all: 'threads', text: 'text threads', images: 'image threads' } as const;

/** Checks that `filter` is the pressed button, its status line and its first page of cards are shown. */
async function expectFilter(page: Page, filter: ThreadFilter): Promise<void> {
  const { counts } = await servedManifest(page.request);
  for (const other of Object.keys(LABELS) as ThreadFilter[]) {
    await expect(page.getByRole('button', { name: LABELS[other], exact: true })).toHaveAttribute(
      'aria-pressed',
      String(other === filter),
    );
  }
  await expect(statusLine(page)).toHaveText(
    `Showing ${Math.min(CATALOGUE_PAGE_SIZE, counts[filter])} of ${counts[filter]} ${NOUNS[filter]}`,
  );
  const expected = (await servedPage(page.request, filter, 1)).cards.map((card) => card.content);
  await expect.poll(() => cardTexts(page)).toEqual(expected);
  const images = threadCards(page).locator('img.thread-card__image');
  if (filter === 'text') await expect(images).toHaveCount(0);
  if (filter === 'images') await expect(images).toHaveCount(expected.length);
}

test('the filter lives in the address: opened directly, changed, and restored by Back and Forward', async ({
  page,
}) => {
  await page.goto('/');
  await waitForHydration(page);
  await expectFilter(page, 'all');

  // A shared link to the Text view opens on Text.
  await page.goto('/?filter=text');
  await waitForHydration(page);
  await expectFilter(page, 'text');

  await page.getByRole('button', { name: 'Images', exact: true }).click();
  await expect(page).toHaveURL(/\/\?filter=images$/);
  await expectFilter(page, 'images');

  await page.goBack();
  await expect(page).toHaveURL(/\/\?filter=text$/);
  await expectFilter(page, 'text');

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await waitForHydration(page);
  await expectFilter(page, 'all');

  await page.goForward();
  await expect(page).toHaveURL(/\/\?filter=text$/);
  await waitForHydration(page);
  await expectFilter(page, 'text');
  await page.goForward();
  await expect(page).toHaveURL(/\/\?filter=images$/);
  await expectFilter(page, 'images');

  // All takes the filter out of the address again.
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectFilter(page, 'all');
});

test('an unknown filter in the address shows All', async ({ page }) => {
  await page.goto('/?filter=videos');
  await waitForHydration(page);
  await expectFilter(page, 'all');
});

test('without JavaScript the page is the All view, whatever the address says', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/?filter=text');
  const { counts } = await servedManifest(page.request);
  await expect(page.getByRole('button', { name: 'All', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(statusLine(page)).toHaveText(`Showing ${CATALOGUE_PAGE_SIZE} of ${counts.all} threads`);
  const all = (await servedPage(page.request, 'all', 1)).cards;
  expect(await cardTexts(page)).toEqual(all.map((card) => card.content));
  // All mixes both kinds: the image cards a Text view would leave out are there.
  await expect(threadCards(page).locator('img.thread-card__image')).toHaveCount(
    all.filter((card) => card.image !== null).length,
  );
  expect(all.some((card) => card.image !== null)).toBe(true);
  await context.close();
});
