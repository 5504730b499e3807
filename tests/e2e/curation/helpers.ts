import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { CataloguePage } from '../../../contract/catalogue-pages.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { expect } from '../fixtures.ts';

// Shared by the curation browser tests: the dashboard's review queue and its curation control.

/** The number in a tab's label, "Pending Review (12)" → 12. */
export async function tabCount(page: Page, label: string): Promise<number> {
  const text = await page.getByRole('tab', { name: new RegExp(`^${label} \\(\\d+\\)$`) }).textContent();
  return Number(/\((\d+)\)/.exec(text ?? '')?.[1]);
}

/** Opens the dashboard's Pending Review tab once the queue has loaded; returns the tab panel. */
export async function openPendingReview(page: Page): Promise<Locator> {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.dashboard);
  await page.getByRole('tab', { name: /^Pending Review \(\d+\)$/ }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByText(TEXTS.loading)).toHaveCount(0);
  return panel;
}

/**
 * Clicks 'Refresh now' until a run of ours finishes. The server's scheduled run may hold the lock for a
 * moment (409), in which case the control says so and we try again.
 */
export async function refreshNow(panel: Locator): Promise<void> {
  await expect(async () => {
    await panel.getByRole('button', { name: 'Refresh now' }).click();
    await expect(panel.getByText(/^Curation run finished: \d+ new threads?\.$/)).toBeVisible({
      timeout: 30_000,
    });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
}

/** The card whose 'View on Threads' link is `permalink`: a handle on one card among other tests' data. */
export function cardFor(panel: Locator, permalink: string): Locator {
  return panel.locator('.review-card', { has: panel.page().locator(`a[href="${permalink}"]`) });
}

export async function permalinkOf(card: Locator): Promise<string> {
  const href = await card.getByRole('link', { name: TEXTS.viewOnThreads }).getAttribute('href');
  if (!href) throw new Error('card without a permalink');
  return href;
}

/** The decisions' live region (decision 013): where the spec's alert texts are shown, never in a dialog. */
export function liveRegion(page: Page): Locator {
  return page.locator('.live-alert[role="alert"]');
}

/** The id of the review card that holds the focus ('' when none does). */
export async function focusedCardId(page: Page): Promise<string> {
  return page.evaluate(
    () => document.activeElement?.closest<HTMLElement>('[data-thread-id]')?.dataset.threadId ?? '',
  );
}

/** Every pending thread id the server has, walking the pages with the page's session. */
export async function pendingIds(page: Page): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const response = await page.request.get(
      `/api/threads/pending-review${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { threads: { id: string }[]; next_cursor: string | null };
    for (const thread of body.threads) ids.add(thread.id);
    cursor = body.next_cursor;
  } while (cursor);
  return ids;
}

/** The number of the exported `filter` page (all, text, images) that holds `permalink`; 0 when none does. */
export async function cataloguePageHolding(
  request: APIRequestContext,
  filter: 'all' | 'text' | 'images',
  permalink: string,
): Promise<number> {
  for (let number = 1; ; number++) {
    const response = await request.get(`/data/pages/${filter}/${number}.json`);
    if (!response.ok()) return 0;
    const page = (await response.json()) as CataloguePage;
    if (page.cards.some((card) => card.permalink === permalink)) return number;
    if (page.page >= page.pages) return 0;
  }
}

/**
 * Presses 'Show more threads' until the home grid shows `pages` pages, and returns the card holding
 * `permalink` (the page number comes from cataloguePageHolding).
 */
export async function cardOnHome(page: Page, pages: number, permalink: string): Promise<Locator> {
  const cards = page.locator('article.thread-card');
  for (let shown = 1; shown < pages; shown++) {
    const count = await cards.count();
    await page.getByRole('button', { name: 'Show more threads' }).click();
    await expect.poll(() => cards.count()).toBeGreaterThan(count);
  }
  return cards.filter({ has: page.locator(`a[href="${permalink}"]`) });
}
