import type { Page } from '@playwright/test';
import { AUTHOR_STATUS_TEXT, AUTHOR_TEXTS } from '../../../contract/authors.ts';
import type { ReviewQueuePage } from '../../../contract/review-queue.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { expect, signedInPage, test } from '../fixtures.ts';
import { cataloguePageHolding, openPendingReview, refreshNow } from './helpers.ts';

// Authors in control (issue 18, decision 028): a seeded author of the simulated provider signs in
// without an invite, and acts on /your-posts.
test.describe.configure({ timeout: 240_000 });

/** Every pending thread, page after page, read with the admin page's session. */
async function pendingThreads(admin: Page): Promise<ReviewThread[]> {
  const threads: ReviewThread[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const response = await admin.request.get(`/api/threads/pending-review${query}`);
    expect(response.status()).toBe(200);
    const page = (await response.json()) as ReviewQueuePage;
    threads.push(...page.threads);
    cursor = page.next_cursor;
  } while (cursor);
  return threads;
}

/** The admin approves, as the dashboard does; false when another test decided the thread first. */
async function approve(admin: Page, threadId: string): Promise<boolean> {
  const response = await admin.request.post('/api/threads/approve', {
    data: { thread_id: threadId },
    headers: { Origin: new URL(admin.url()).origin },
  });
  return response.status() === 200;
}

/** The author's entry for the post at `permalink` on /your-posts. */
const entryFor = (page: Page, permalink: string) =>
  page.locator('li.author-post', { has: page.locator(`a[href="${permalink}"]`) });

test('an author removes an approved post on /your-posts and it leaves home after the rebuild', async ({
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/); // a scheduled run may hold the curation lock for a moment
  const admin = await signedInPage(newPage, 'admin');
  const panel = await openPendingReview(admin);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));

  // The newest waiting post (the first page of home once approved); another test may decide it first.
  let approved: ReviewThread | undefined;
  for (const thread of await pendingThreads(admin)) {
    if (await approve(admin, thread.id)) {
      approved = thread;
      break;
    }
  }
  if (!approved) throw new Error('no thread could be approved');
  const { permalink } = approved;
  await expect
    .poll(() => cataloguePageHolding(admin.request, 'all', permalink), {
      timeout: 120_000,
      intervals: [1_000],
    })
    .toBe(1);
  // The catalogue is served from disk as the export writes it (decision 034); home follows once the
  // rebuild is swapped in.
  await expect
    .poll(async () => (await admin.request.get('/')).text(), { timeout: 120_000, intervals: [1_000] })
    .toContain(permalink);
  const visitor = await newPage();
  await visitor.goto('/');
  await expect(visitor.locator(`a[href="${permalink}"]`)).toHaveCount(1);

  // The author, who never asked for an invite, finds it on 'Is this your post?' and removes it.
  const author = await signedInPage(newPage, approved.handle.slice(1));
  await author.goto('/your-posts');
  await expect(author.getByRole('heading', { level: 1 })).toHaveText(AUTHOR_TEXTS.heading);
  const entry = entryFor(author, permalink);
  await expect(entry).toContainText(AUTHOR_STATUS_TEXT.approved);
  await entry.getByRole('button', { name: AUTHOR_TEXTS.remove }).click();
  await expect(entry).toContainText(AUTHOR_STATUS_TEXT.removed);
  await expect(author.getByRole('status').filter({ hasText: AUTHOR_TEXTS.removed })).toBeVisible();
  // The pressed button gave way to 'Restore': the focus stays on the list, not lost to the page.
  await expect(author.getByRole('list', { name: AUTHOR_TEXTS.listLabel })).toBeFocused();
  await expect(entry.getByRole('button', { name: AUTHOR_TEXTS.restore })).toBeVisible();

  // The rebuild takes it off the catalogue and off home.
  await expect
    .poll(() => cataloguePageHolding(admin.request, 'all', permalink), {
      timeout: 120_000,
      intervals: [1_000],
    })
    .toBe(0);
  await expect
    .poll(async () => (await visitor.request.get('/')).text(), { timeout: 120_000, intervals: [1_000] })
    .not.toContain(permalink);
  await visitor.reload();
  await expect(visitor.locator('.thread-card').first()).toBeVisible();
  await expect(visitor.locator(`a[href="${permalink}"]`)).toHaveCount(0);
});

test("'Never curate me' keeps the author's posts out of the queue when the admin runs curation", async ({
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/);
  const admin = await signedInPage(newPage, 'admin');
  const panel = await openPendingReview(admin);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  // The author of the oldest waiting post: the other curation tests decide from the newest.
  const waiting = await pendingThreads(admin);
  const handle = waiting.at(-1)?.handle;
  if (!handle) throw new Error('the queue is empty');
  const before = waiting.filter((thread) => thread.handle === handle).length;
  expect(before).toBeGreaterThan(0);

  const author = await signedInPage(newPage, handle.slice(1));
  await author.goto('/your-posts');
  const optOut = author.getByRole('button', { name: AUTHOR_TEXTS.optOut, exact: true });
  await optOut.click();
  // Asked first, with the answer focused; Cancel leaves everything as it was.
  await expect(author.getByText(AUTHOR_TEXTS.confirmOptOut)).toBeVisible();
  await expect(author.getByRole('button', { name: AUTHOR_TEXTS.confirm })).toBeFocused();
  await author.getByRole('button', { name: AUTHOR_TEXTS.cancel }).click();
  await expect(optOut).toBeFocused();
  await optOut.click();
  await author.getByRole('button', { name: AUTHOR_TEXTS.confirm }).click();
  await expect(author.getByRole('status').filter({ hasText: AUTHOR_TEXTS.optedOutDone })).toBeVisible();
  const optIn = author.getByRole('button', { name: AUTHOR_TEXTS.optIn });
  await expect(optIn).toBeFocused();
  await expect(author.getByText(AUTHOR_TEXTS.optedOut)).toBeVisible();
  // Their waiting posts left the queue and can be restored.
  await expect(author.locator('.author-post__status--pending')).toHaveCount(0);
  await expect(
    author
      .locator('li.author-post', {
        hasText: `(Restore makes it: ${AUTHOR_STATUS_TEXT.pending.toLowerCase()})`,
      })
      .first(),
  ).toBeVisible();

  // The admin runs curation again: no post of theirs reaches the queue.
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  expect((await pendingThreads(admin)).filter((thread) => thread.handle === handle)).toEqual([]);

  // Reversible by the author.
  await optIn.click();
  await expect(author.getByRole('status').filter({ hasText: AUTHOR_TEXTS.optedInDone })).toBeVisible();
  await expect(author.getByRole('button', { name: AUTHOR_TEXTS.optOut, exact: true })).toBeFocused();
});
