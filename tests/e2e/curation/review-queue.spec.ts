import type { Locator, Page } from '@playwright/test';
import { REJECTION_REASON_MESSAGES, REJECTION_REASON_PRESETS } from '../../../contract/moderation.ts';
import { REVIEW_PAGE_SIZE, REVIEW_QUEUE_TEXTS as T } from '../../../contract/review-queue.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { dialogs, expect, signInAs, test } from '../fixtures.ts';
import { focusedCardId, liveRegion, openPendingReview, pendingIds, refreshNow, tabCount } from './helpers.ts';

// The review queue by keyboard, in bulk and with reasons. Other curation specs decide the first
// cards of the queue at the same time, so these start a few cards down and check the server's
// answer for the threads they decided themselves.
test.describe.configure({ timeout: 180_000 });

// A thread another spec decided first answers 'already decided' instead of the approval.
const APPROVE_TEXTS = new RegExp(`^(${TEXTS.threadApproved}|${T.alreadyDecided.replace(/[.;]/g, '\\$&')})$`);

/** The admin's queue, after a curation run, narrowed to the threads a keyword search found. */
async function keywordQueue(page: Page): Promise<Locator> {
  await signInAs(page, 'admin');
  const panel = await openPendingReview(page);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  const filtered = page.waitForResponse((r) =>
    r.url().includes('/api/threads/pending-review?source=public_search'),
  );
  await panel.getByLabel(T.sourceLabel).selectOption('public_search');
  await filtered;
  const items = panel.locator('.review-queue__item');
  await expect(items.filter({ hasNotText: 'Keyword Search' })).toHaveCount(0);
  await expect(items.first()).toContainText(/Found by “[^”]+”/);
  // The keys belong to the queue, not to the select that still has the focus.
  await page.getByRole('heading', { level: 1 }).click();
  return panel;
}

const ids = (panel: Locator) =>
  panel
    .locator('.review-queue__item')
    .evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.threadId ?? ''));

test('an admin clears 30 pending threads by keyboard alone: no dialog, the count drops by 30, the place is kept', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/); // a scheduled run holding the lock; a thread another spec decided first
  pageProblems.allow(/Failed to approve thread/); // logged for that 409 too
  const seen = dialogs(page);
  const panel = await keywordQueue(page);
  const before = await tabCount(page, 'Pending Review');
  const pendingBefore = await pendingIds(page);
  const status = panel.locator('.review-queue__count');
  await expect(status).toHaveText(/^25 of \d+ threads shown$/);
  const shown = Number(/of (\d+)/.exec((await status.textContent()) ?? '')?.[1]);
  expect(shown).toBeGreaterThanOrEqual(36);

  // j moves down, k back up: the sixth card has the focus, visibly.
  for (let n = 0; n < 7; n++) await page.keyboard.press('j');
  await page.keyboard.press('k');
  const start = (await ids(panel))[5];
  expect(await focusedCardId(page)).toBe(start);
  await expect(panel.locator(`[data-thread-id="${start}"]`)).toHaveCSS('outline-style', 'solid');

  const decided: string[] = [];
  for (let n = 0; n < 30; n++) {
    const id = await focusedCardId(page);
    const order = await ids(panel);
    const next = order[order.indexOf(id) + 1];
    expect(next, `a card after the ${n + 1}th`).toBeTruthy();
    await page.keyboard.press('a');
    await expect(panel.locator(`[data-thread-id="${id}"]`)).toHaveCount(0);
    // The place is kept: the next card takes the focus, in view.
    await expect.poll(() => focusedCardId(page)).toBe(next);
    await expect(panel.locator(`[data-thread-id="${next}"]`)).toBeInViewport();
    await expect(liveRegion(page)).toHaveText(n === 0 ? TEXTS.threadApproved : APPROVE_TEXTS);
    decided.push(id);
  }
  // Past the first page of 25: the next pages came in while the keys went on.
  expect(new Set(decided).size).toBe(30);
  expect(seen).toEqual([]);
  // The count first, then the queue: a thread another spec adds in between (submissions, curation
  // runs) is then among `added`, never counted without being allowed for.
  const after = await tabCount(page, 'Pending Review');
  const pending = await pendingIds(page);
  const added = [...pending].filter((id) => !pendingBefore.has(id)).length;
  expect(after).toBeLessThanOrEqual(before - 30 + added);
  expect(decided.filter((id) => pending.has(id))).toEqual([]);
});

test('select several with the mouse and x, approve them in one call; Load more keeps the cards shown', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/);
  const seen = dialogs(page);
  const panel = await keywordQueue(page);
  const items = panel.locator('.review-queue__item');
  await expect(items).toHaveCount(REVIEW_PAGE_SIZE);
  const firstPage = await ids(panel);
  await panel.getByRole('button', { name: T.loadMore }).click();
  await expect.poll(async () => (await ids(panel)).length).toBeGreaterThan(REVIEW_PAGE_SIZE);
  expect((await ids(panel)).slice(0, REVIEW_PAGE_SIZE)).toEqual(firstPage);

  // Select all shown: every loaded card, in the bar's count; Clear selection undoes it.
  await panel.getByRole('button', { name: T.selectAll }).click();
  const shownNow = (await ids(panel)).length;
  const allBar = panel.getByRole('region', { name: 'Selected threads' });
  await expect(allBar).toContainText(`${shownNow} selected`);
  await expect(items.getByRole('checkbox', { checked: true })).toHaveCount(shownNow);
  await allBar.getByRole('button', { name: T.clearSelection }).click();
  await expect(allBar).toHaveCount(0);

  // Two by their checkboxes, a third by its key.
  const chosen = [firstPage[10], firstPage[12], firstPage[14]] as string[];
  for (const id of chosen.slice(0, 2)) {
    await panel.locator(`[data-thread-id="${id}"]`).getByRole('checkbox').check();
  }
  // The keys go on from the card last clicked.
  for (let n = 0; n < 2; n++) await page.keyboard.press('j');
  expect(await focusedCardId(page)).toBe(chosen[2]);
  await page.keyboard.press('x');
  const bar = panel.getByRole('region', { name: 'Selected threads' });
  await expect(bar).toContainText('3 selected');
  const before = await tabCount(page, 'Pending Review');
  const bulk = page.waitForRequest((r) => r.url().endsWith('/api/threads/decide-many'));
  await bar.getByRole('button', { name: T.approveSelected }).click();
  expect((await bulk).postDataJSON()).toEqual({ thread_ids: chosen, action: 'approve' });
  await expect(liveRegion(page)).toHaveText(
    /^3 threads approved\.|^\d threads? approved\. \d had already been decided\.$/,
  );
  for (const id of chosen) await expect(panel.locator(`[data-thread-id="${id}"]`)).toHaveCount(0);
  await expect(bar).toHaveCount(0);
  expect(await tabCount(page, 'Pending Review')).toBeLessThanOrEqual(before - 3);
  const pending = await pendingIds(page);
  expect(chosen.filter((id) => pending.has(id))).toEqual([]);
  expect(seen).toEqual([]);
});

test('r asks why with the presets; Escape cancels, Enter rejects with the chosen reason; ? lists the keys', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/);
  const seen = dialogs(page);
  const panel = await keywordQueue(page);

  // Closing the list hands the focus back to where it was when '?' opened it (a card here).
  await page.keyboard.press('j');
  await expect.poll(() => focusedCardId(page)).not.toBe('');
  await page.evaluate(() => document.activeElement?.setAttribute('data-before-help', ''));
  await page.keyboard.press('?');
  const help = panel.getByRole('region', { name: T.shortcuts });
  await expect(help).toContainText('Approve the focused thread');
  await expect(help.locator('kbd')).toHaveText(['j', 'k', 'a', 'r', 'x', 'u', '?']);
  await expect(help.getByRole('button', { name: T.closeShortcuts })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(page.locator('[data-before-help]')).toBeFocused();

  for (let n = 0; n < 9; n++) await page.keyboard.press('j');
  const id = await focusedCardId(page);
  const card = panel.locator(`[data-thread-id="${id}"]`);
  await page.keyboard.press('r');
  const reasons = card.getByRole('group', { name: T.reasonLegend });
  await expect(reasons.getByRole('radio', { name: REJECTION_REASON_PRESETS[0] })).toBeFocused();
  // The form says, before anything is written, that a reason is public.
  await expect(reasons).toHaveAccessibleDescription(T.reasonPublished);
  // Keys typed in the form are the form's: 'a' approves nothing here.
  await page.keyboard.press('a');
  // A written reason that would show reversed on /moderation is refused in words, before any request.
  const own = card.getByRole('textbox', { name: T.ownReason });
  await own.fill('spam \u202Emaerc eci');
  await expect(own).toHaveAccessibleDescription(REJECTION_REASON_MESSAGES.hidden);
  const confirm = card.locator('form.reject-reason').getByRole('button', { name: T.confirmReject });
  await expect(confirm).toBeDisabled();
  await own.press('Escape');
  await expect(reasons).toHaveCount(0);
  expect(await focusedCardId(page)).toBe(id);
  await expect(card).toHaveCount(1);

  await page.keyboard.press('r');
  await expect(reasons.getByRole('radio', { name: REJECTION_REASON_PRESETS[0] })).toBeFocused();
  // At 320 px the queue, its filters and the open reason form fit without sideways scrolling.
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.keyboard.press('ArrowDown');
  await expect(reasons.getByRole('radio', { name: REJECTION_REASON_PRESETS[1] })).toBeChecked();
  const rejected = page.waitForResponse((r) => r.url().endsWith('/api/threads/reject'));
  await page.keyboard.press('Enter');
  const response = await rejected;
  // The server answers with the reason as it stored it on the thread.
  expect(await response.json()).toEqual({
    success: true,
    status: 'rejected',
    reason: REJECTION_REASON_PRESETS[1],
  });
  await expect(card).toHaveCount(0);
  await expect(liveRegion(page)).toHaveText(TEXTS.threadRejected);

  // The message never covers the control the keyboard is in: with the next card's reason form at the
  // bottom of the window, it shows at the top instead.
  await expect.poll(() => focusedCardId(page)).not.toBe('');
  const next = panel.locator(`[data-thread-id="${await focusedCardId(page)}"]`);
  await page.keyboard.press('r');
  const nextReasons = next.getByRole('group', { name: T.reasonLegend });
  await expect(nextReasons.getByRole('radio', { name: REJECTION_REASON_PRESETS[0] })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  // Scrolled to where a bottom message would lie (a few pixels above the window's bottom edge).
  await page.evaluate(() => {
    const box = document.activeElement?.getBoundingClientRect();
    if (box) window.scrollBy(0, box.bottom - (window.innerHeight - 30));
  });
  await expect(liveRegion(page)).toHaveText(TEXTS.threadRejected);
  const overlaps = () =>
    page.evaluate(() => {
      const focused = document.activeElement?.getBoundingClientRect();
      const message = document.querySelector('.live-alert p')?.getBoundingClientRect();
      if (!focused || !message) return null;
      return message.bottom > focused.top && message.top < focused.bottom;
    });
  await expect.poll(overlaps).toBe(false);
  await page.keyboard.press('Escape');
  expect(seen).toEqual([]);
});
