import type { APIRequestContext, Page } from '@playwright/test';
import type { CataloguePage } from '../../../contract/catalogue-pages.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { dialogs, expect, signedInPage, test, waitForHydration } from '../fixtures.ts';
import {
  cardFor,
  cardOnHome,
  cataloguePageHolding,
  liveRegion,
  openPendingReview,
  permalinkOf,
  refreshNow,
} from './helpers.ts';

test.describe.configure({ timeout: 180_000 });

const TEXT_LIST_STATUS = /^(Showing \d+ of \d+ text threads|No threads found for the selected filter\.)$/;

/**
 * The served catalogue as a cached first page is keyed (decision 037): its full export's version, and
 * the head of the threads approved since. An approval changes one of them: the version after a full
 * export, the head when it joins the tail.
 */
async function servedCatalogue(request: APIRequestContext): Promise<string> {
  const manifest = (await (await request.get('/data/manifest.json')).json()) as {
    version?: string;
    head?: string;
  };
  return `${manifest.version ?? ''}/${manifest.head ?? ''}`;
}

/** The Text page the browser keeps in localStorage, as the island saved it. */
async function cachedTextPage(page: Page): Promise<CataloguePage | null> {
  return page.evaluate(
    () =>
      (
        JSON.parse(localStorage.getItem('curated-threads:page:text:1') ?? 'null') as {
          value: CataloguePage;
        } | null
      )?.value ?? null,
  );
}

// An approval changes the catalogue version, so a visitor whose browser still holds the Text list of
// the old catalogue gets the new one on the next page view instead of the cached page.
test('after an approval, a visitor with the Text list cached sees the new text thread on reload', async ({
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/); // a scheduled run may hold the curation lock for a moment

  // A visitor reads the Text list: its first page is now cached in the browser.
  const visitor = await newPage();
  await visitor.goto('/?filter=text');
  await waitForHydration(visitor);
  await expect(visitor.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(visitor.getByRole('status')).toHaveText(TEXT_LIST_STATUS);
  const before = await cachedTextPage(visitor);
  expect(before?.version).toBeTruthy();
  const oldCatalogue = `${before?.version ?? ''}/${before?.head ?? ''}`;

  // The admin approves a text thread (no image) from the review queue.
  const admin = await signedInPage(newPage, 'admin');
  const alerts = dialogs(admin);
  const panel = await openPendingReview(admin);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  // The last one: the other curation tests decide the first cards of the queue.
  const textCard = panel
    .locator('.review-card')
    .filter({ hasNot: admin.locator('img.review-row__thumb') })
    .last();
  await expect(textCard).toBeVisible();
  const permalink = await permalinkOf(textCard);
  const content = (await textCard.locator('.review-row__text').textContent())?.trim() ?? '';
  expect(content).not.toBe('');
  await expect(visitor.locator(`a[href="${permalink}"]`)).toHaveCount(0);
  await cardFor(panel, permalink).getByRole('button', { name: TEXTS.approve }).click();
  await expect(cardFor(panel, permalink)).toHaveCount(0);
  await expect(liveRegion(admin)).toHaveText(TEXTS.threadApproved);
  expect(alerts).toEqual([]);

  // The server republishes the catalogue in the background: a new version whose Text list holds it.
  // The publisher writes the pages first and the manifest last (its commit point), so a page may
  // already hold the thread while the manifest still names the old catalogue: wait for both.
  let onPage = 0;
  await expect
    .poll(
      async () => {
        onPage = await cataloguePageHolding(admin.request, 'text', permalink);
        return onPage > 0 && (await servedCatalogue(admin.request)) !== oldCatalogue;
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe(true);

  // The visitor comes back: the cached page belongs to the old catalogue, so it is fetched again.
  let textPageRequests = 0;
  visitor.on('request', (request) => {
    if (new URL(request.url()).pathname === '/data/pages/text/1.json') textPageRequests++;
  });
  await visitor.reload();
  await waitForHydration(visitor);
  await expect(visitor.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(visitor.getByRole('status')).toHaveText(/^Showing \d+ of \d+ text threads$/);
  const card = await cardOnHome(visitor, onPage, permalink);
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(content.slice(0, 60));
  await expect(card.locator('img.thread-card__image')).toHaveCount(0);
  expect(textPageRequests).toBeGreaterThanOrEqual(1);
  const after = await cachedTextPage(visitor);
  expect(`${after?.version ?? ''}/${after?.head ?? ''}`).not.toBe(oldCatalogue);
});
