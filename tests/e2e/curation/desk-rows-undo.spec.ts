import type { Locator, Page } from '@playwright/test';
import { UNDO_TEXTS, undoneMessage } from '../../../contract/review-undo.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { dialogs, expect, signInAs, test } from '../fixtures.ts';
import {
  cardFor,
  focusedCardId,
  liveRegion,
  openPendingReview,
  pendingIds,
  permalinkOf,
  refreshNow,
} from './helpers.ts';

// The compact desk (issue 20): rows with a thumbnail, eight or more to a 1280x800 screen, and Undo
// after a decision (decision 047). Other curation specs decide the first rows of the queue at the
// same time, so these decide rows near the end of the first page.
test.describe.configure({ timeout: 180_000 });

/**
 * Queue rows without a picture: an approval these tests take back must not leave a card whose
 * picture (/api/media/{id}) answers 404 on a page another spec has open at that moment.
 */
function textRows(page: Page, panel: Locator): Locator {
  return panel.locator('.review-queue__item').filter({ hasNot: page.locator('img.review-row__thumb') });
}

async function desk(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, 'admin');
  const panel = await openPendingReview(page);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  await expect(panel.locator('.review-queue__item').nth(12)).toBeVisible();
  return panel;
}

test('at 1280x800 the queue starts on the first screen and eight rows fit in a screen of the list, each with its thumbnail', async ({
  page,
}) => {
  const panel = await desk(page);
  const list = panel.locator('.review-queue__list');
  const viewport = page.viewportSize();
  const rows = await panel.locator('.review-queue__item').all();
  const wholeRows = async () => {
    let whole = 0;
    for (const row of rows) {
      const box = await row.boundingBox();
      if (box && box.y >= 0 && box.y + box.height <= (viewport?.height ?? 0)) whole += 1;
    }
    return whole;
  };
  // The page as it opens: the account and curation panels are one line each, so the queue's first
  // rows are on the first screen, under the title, the tabs and the filters.
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await wholeRows()).toBeGreaterThanOrEqual(2);
  // The list's top at the window's top: what one screen of the queue holds.
  await list.evaluate((node) => window.scrollTo(0, node.getBoundingClientRect().top + window.scrollY));
  expect(await wholeRows()).toBeGreaterThanOrEqual(8);
  // Every row has its fixed-size thumbnail: a picture of the post or the text tile.
  for (const row of rows.slice(0, 8)) {
    const thumb = await row.locator('.review-row__thumb').boundingBox();
    expect([thumb?.width, thumb?.height]).toEqual([80, 60]);
  }
  // The full text and picture are one 'Show all' away, in place.
  const pictured = panel
    .locator('.review-queue__item')
    .filter({ has: page.locator('img.review-row__thumb') })
    .first();
  await expect(pictured.locator('.review-row__text')).toHaveCSS('-webkit-line-clamp', '2');
  await expect(pictured.locator('img.review-row__image')).toHaveCount(0);
  await pictured.getByRole('button', { name: 'Show all' }).click();
  await expect(pictured.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  await expect(pictured.locator('.review-row__text')).toHaveCSS('-webkit-line-clamp', 'none');
  await expect(pictured.locator('img.review-row__image')).toBeVisible();
});

test('approve, then Undo: the row is back in the queue with the focus, and the server says pending', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/); // a scheduled run may hold the curation lock for a moment
  const seen = dialogs(page);
  const panel = await desk(page);
  const row = textRows(page, panel).nth(-2);
  const permalink = await permalinkOf(row);
  const id = (await row.getAttribute('data-thread-id')) ?? '';
  await cardFor(panel, permalink).getByRole('button', { name: TEXTS.approve }).click();
  await expect(cardFor(panel, permalink)).toHaveCount(0);
  await expect(liveRegion(page)).toHaveText(TEXTS.threadApproved);
  expect((await pendingIds(page)).has(id)).toBe(false);

  // The offer is polite and named; the button is reached by Tab like any other.
  const bar = page.getByRole('status').filter({ hasText: /^Approved the thread by @/ });
  await expect(bar).toBeVisible();
  const undo = bar.getByRole('button', { name: UNDO_TEXTS.undo });
  await undo.focus();
  const undone = page.waitForResponse((r) => r.url().endsWith('/api/threads/undo'));
  await page.keyboard.press('Enter');
  expect((await undone).status()).toBe(200);
  await expect(cardFor(panel, permalink)).toHaveCount(1);
  await expect(liveRegion(page)).toHaveText(undoneMessage(1));
  await expect.poll(() => focusedCardId(page)).toBe(id);
  await expect(bar).toHaveCount(0);
  expect((await pendingIds(page)).has(id)).toBe(true);

  // By the keys alone: a approves the focused row, u takes it back.
  await page.keyboard.press('a');
  await expect(cardFor(panel, permalink)).toHaveCount(0);
  await expect(bar).toBeVisible();
  await page.keyboard.press('u');
  await expect(cardFor(panel, permalink)).toHaveCount(1);
  await expect.poll(async () => (await pendingIds(page)).has(id)).toBe(true);
  expect(seen).toEqual([]);
});

test('on a narrow window the reject form opens clear of the Undo bar', async ({ page, pageProblems }) => {
  pageProblems.allow(/status of 409/); // a scheduled run may hold the curation lock for a moment
  const panel = await desk(page);
  await page.setViewportSize({ width: 375, height: 740 });
  const approved = textRows(page, panel).nth(-3);
  const permalink = await permalinkOf(approved);
  await cardFor(panel, permalink).getByRole('button', { name: TEXTS.approve }).click();
  const bar = page.getByRole('status').filter({ hasText: /^Approved the thread by @/ });
  await expect(bar).toBeVisible();
  // A row whose Reject button is at the window's foot, where the bar is. Pinned by its id: a
  // refresh of the queue (another spec's decision, a run's end) may reorder the rows mid-test.
  const rowId = await panel.locator('.review-queue__item').nth(-2).getAttribute('data-thread-id');
  const row = panel.locator(`.review-queue__item[data-thread-id="${rowId}"]`);
  await row.evaluate((node) =>
    window.scrollTo(0, node.getBoundingClientRect().bottom + window.scrollY - window.innerHeight),
  );
  await row.getByRole('button', { name: TEXTS.reject }).focus();
  await page.keyboard.press('Enter');
  const form = row.locator('form.reject-reason');
  await expect(form).toBeVisible();
  await expect(bar).toBeVisible();
  const [formBox, barBox] = [await form.boundingBox(), await bar.boundingBox()];
  expect((formBox?.y ?? 0) + (formBox?.height ?? 0)).toBeLessThanOrEqual(barBox?.y ?? 0);
  // Nothing decided: Escape closes the form, Undo takes the approval back.
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await bar.getByRole('button', { name: UNDO_TEXTS.undo }).click();
  await expect(cardFor(panel, permalink)).toHaveCount(1);
});
