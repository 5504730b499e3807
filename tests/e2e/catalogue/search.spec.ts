import { CATALOGUE_PAGE_SIZE } from '../../../contract/catalogue-pages.ts';
import { expect, test, waitForHydration } from '../fixtures.ts';
import { LARGE_CATALOGUE } from '../../large-catalogue.ts';
import { NEEDLE, NEEDLE_WORD, servedManifest, statusLine, threadCards } from './helpers.ts';

test('search finds the one thread on page 40, keeps the query in the address, and clears back to the grid', async ({
  page,
}) => {
  expect(LARGE_CATALOGUE.needleText).toContain(NEEDLE_WORD);
  // Search files fetched, and whether the box had been used by then.
  const indexRequests: { path: string; boxUsed: boolean }[] = [];
  let boxUsed = false;
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/data/search/')) indexRequests.push({ path: pathname, boxUsed });
  });
  const { counts } = await servedManifest(page.request);

  await page.goto('/');
  await waitForHydration(page);
  // Everything the page loads by itself has loaded: the index is not part of it.
  await page.waitForLoadState('networkidle');
  expect(indexRequests).toEqual([]);

  const box = page.getByRole('searchbox', { name: 'Search threads' });
  boxUsed = true;
  await box.fill(NEEDLE_WORD);
  await expect(statusLine(page)).toHaveText(`1 thread matches “${NEEDLE_WORD}”`);
  await expect(threadCards(page)).toHaveCount(1);
  await expect(threadCards(page).first()).toContainText(NEEDLE.content);
  await expect(page).toHaveURL(`/?q=${NEEDLE_WORD}`);
  expect(indexRequests.length).toBeGreaterThan(0);
  expect(indexRequests.every((request) => request.boxUsed)).toBe(true);
  // While searching, no filter reads as chosen.
  await expect(page.getByRole('button', { name: 'All', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  // A reload (or a shared link) searches again.
  await page.reload();
  await waitForHydration(page);
  await expect(box).toHaveValue(NEEDLE_WORD);
  await expect(statusLine(page)).toHaveText(`1 thread matches “${NEEDLE_WORD}”`);
  await expect(threadCards(page)).toHaveCount(1);
  await expect(threadCards(page).first()).toContainText(NEEDLE.content);

  // An empty box is the grid again, and the address forgets the query.
  await box.fill('');
  await expect(statusLine(page)).toHaveText(`Showing ${CATALOGUE_PAGE_SIZE} of ${counts.all} threads`);
  await expect(threadCards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'All', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  const nothing = 'qzxwvjkplumb';
  await box.fill(nothing);
  await expect(statusLine(page)).toHaveText(`No threads match “${nothing}”.`);
  await expect(threadCards(page)).toHaveCount(0);
  await expect(page).toHaveURL(`/?q=${nothing}`);
});

test('a search that matches many threads shows them a page at a time', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  // An author's handle is indexed: every thread of the needle's author matches it.
  const handle = NEEDLE.handle.replace(/^@/, '');
  await page.getByRole('searchbox', { name: 'Search threads' }).fill(handle);
  await expect(statusLine(page)).toHaveText(/^\d+ threads match “.+”$/);
  const matches = Number(/^(\d+)/.exec((await statusLine(page).textContent()) ?? '')?.[1]);
  expect(matches).toBeGreaterThan(CATALOGUE_PAGE_SIZE);
  await expect(threadCards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  await expect(threadCards(page).filter({ hasText: NEEDLE.handle })).toHaveCount(CATALOGUE_PAGE_SIZE);
  // By keyboard: the first of the new matches takes the focus.
  await page.getByRole('button', { name: 'Show more matches' }).focus();
  await page.keyboard.press('Enter');
  await expect(threadCards(page)).toHaveCount(Math.min(2 * CATALOGUE_PAGE_SIZE, matches));
  await expect(threadCards(page).nth(CATALOGUE_PAGE_SIZE)).toBeFocused();
  await expect(threadCards(page).filter({ hasText: NEEDLE.handle })).toHaveCount(
    Math.min(2 * CATALOGUE_PAGE_SIZE, matches),
  );
});
