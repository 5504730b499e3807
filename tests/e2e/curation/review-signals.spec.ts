import type { Locator } from '@playwright/test';
import { REVIEW_QUEUE_TEXTS as T } from '../../../contract/review-queue.ts';
import { REVIEW_SIGNAL_TEXTS as S } from '../../../contract/review-signals.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { expect, signInAs, test } from '../fixtures.ts';
import { openPendingReview, refreshNow } from './helpers.ts';

// The review queue's signals (issue 22, decision 055) in the admin's desk: history, duplicate and
// reason chips, the found words marked. Other curation specs decide threads at the same time, so the
// checks hold whichever threads are left.
test.describe.configure({ timeout: 180_000 });

/** The path of a picture's address (what makes two pictures "the same", decision 055). */
const pathOf = (src: string) => new URL(src, 'http://x').pathname;

/** Each item's id and its picture's path, in the order shown. */
const pictures = (panel: Locator) =>
  panel.locator('.review-queue__item').evaluateAll((nodes) =>
    nodes.map((node) => ({
      id: (node as HTMLElement).dataset.threadId ?? '',
      src: node.querySelector('img')?.getAttribute('src') ?? '',
    })),
  );

test('the queue shows history, duplicate and reason chips, and the words that found each thread', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/); // a scheduled run holding the lock; a thread decided by another spec
  pageProblems.allow(/Failed to approve thread/);
  await signInAs(page, 'admin');
  const panel = await openPendingReview(page);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  const filtered = page.waitForResponse((r) =>
    r.url().includes('/api/threads/pending-review?source=public_search'),
  );
  await panel.getByLabel(T.sourceLabel).selectOption('public_search');
  await filtered;
  const items = panel.locator('.review-queue__item');
  await expect(items.first()).toBeVisible();

  // Every item says its author's history and its score in words.
  const count = await items.count();
  await expect(panel.locator('.review-signals__chip--history')).toHaveCount(count);
  for (const chip of await panel.locator('.review-signals__chip--history').allTextContents())
    expect(chip).toMatch(/^Author: (nothing decided here before|\d+ approved, \d+ rejected here)$/);
  for (const chip of await panel.locator('.review-signals__chip--score').allTextContents())
    expect(chip).toMatch(/^Score \d{1,3} of 100$/);
  expect(await panel.locator('.review-signals__chip--reason').count()).toBeGreaterThan(0);

  // The keyword's words are marked in the text of the thread it found.
  const marked = items.filter({ has: page.locator('.review-row__text mark') }).first();
  await expect(marked).toBeVisible();
  const query = /Found by “([^”]+)”/.exec((await marked.textContent()) ?? '')?.[1] ?? '';
  const word = (await marked.locator('.review-row__text mark').first().textContent()) ?? '';
  expect(query.toLowerCase()).toContain(word.toLowerCase());

  // Approve a thread whose picture another shown thread shares: that one then says so, with a link.
  const shown = await pictures(panel);
  const twin = shown.find(
    (item) =>
      item.src && shown.some((other) => other.id !== item.id && pathOf(other.src) === pathOf(item.src)),
  );
  expect(twin, 'two shown threads with one picture').toBeDefined();
  const approved = twin?.id ?? '';
  const siblings = shown.filter(
    (item) => item.id !== approved && item.src && pathOf(item.src) === pathOf(twin?.src ?? ''),
  );
  expect(siblings.length).toBeGreaterThan(0);
  await panel.locator(`[data-thread-id="${approved}"]`).getByRole('button', { name: TEXTS.approve }).click();
  await expect(panel.locator(`[data-thread-id="${approved}"]`)).toHaveCount(0);

  const reloaded = page.waitForResponse((r) =>
    r.url().includes('/api/threads/pending-review?source=user_own'),
  );
  await panel.getByLabel(T.sourceLabel).selectOption('user_own');
  await reloaded;
  const again = page.waitForResponse((r) =>
    r.url().includes('/api/threads/pending-review?source=public_search'),
  );
  await panel.getByLabel(T.sourceLabel).selectOption('public_search');
  await again;
  const chip = panel.locator('.review-signals__chip--duplicate', {
    has: page.locator(`a[href="/thread/${approved}"]`),
  });
  await expect(chip.first()).toHaveText('Same picture as a thread already approved');

  // The new order and filters are labelled controls reached by Tab, in the order shown.
  await expect(panel.getByLabel(T.sortLabel).locator('option', { hasText: S.byScore })).toHaveCount(1);
  await panel.getByLabel(T.sortLabel).focus();
  await page.keyboard.press('Tab');
  await expect(panel.getByLabel(S.hideRejectedAuthors)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(panel.getByLabel(S.groupDuplicates)).toBeFocused();
  const grouped = page.waitForResponse((r) => r.url().includes('group_duplicates=true'));
  await page.keyboard.press('Space');
  await grouped;
  await expect(panel.locator('.review-signals__chip--grouped').first()).toHaveText(
    /^\d+ more like it in the queue$/,
  );
});
