import type { Page } from '@playwright/test';
import {
  MODERATION_LOG_PAGE_SIZE,
  MODERATION_TEXTS,
  type ModerationLogPage,
} from '../../../contract/moderation-log.ts';
import type { ReviewQueuePage } from '../../../contract/review-queue.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { expect, signedInPage, signInAs, test } from '../fixtures.ts';

test.describe.configure({ timeout: 180_000 });

const run = Date.now().toString(36).slice(-5);

/**
 * Calls our API with the page's browser context (its session cookie), as our own pages do: JSON, from
 * our origin. Through `page.request`, so a reload of the page (the home island follows catalogue
 * changes) cannot interrupt it.
 */
async function callApi<T>(page: Page, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const origin = new URL(page.url()).origin;
  const response =
    body === undefined
      ? await page.request.get(path)
      : await page.request.post(path, { data: body, headers: { Origin: origin } });
  return { status: response.status(), json: (await response.json()) as T };
}

/** The pending thread whose link is `permalink`, as the admin's review queue lists it. */
async function pendingThread(admin: Page, permalink: string): Promise<ReviewThread> {
  const { json } = await callApi<{ threads: ReviewThread[] }>(admin, '/api/threads/pending-review');
  const thread = json.threads.find((item) => item.permalink === permalink);
  if (!thread) throw new Error(`${permalink} is not waiting for review`);
  return thread;
}

/** How many decisions the public log holds, up to `enough` (it stops reading once there are that many). */
async function decisionsLogged(page: Page, enough: number): Promise<number> {
  let total = 0;
  let cursor: string | null = null;
  do {
    const path: string = cursor ? `/api/moderation?cursor=${encodeURIComponent(cursor)}` : '/api/moderation';
    const { json } = await callApi<ModerationLogPage>(page, path);
    total += json.entries.length;
    cursor = json.next_cursor;
  } while (cursor && total < enough);
  return total;
}

/** Every pending thread one search source found, oldest first (page after page of the queue). */
async function pendingFrom(admin: Page, source: 'public_tag' | 'public_search'): Promise<ReviewThread[]> {
  const threads: ReviewThread[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `source=${source}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { json } = await callApi<ReviewQueuePage>(admin, `/api/threads/pending-review?${query}`);
    threads.push(...json.threads);
    cursor = json.next_cursor;
  } while (cursor);
  return threads.reverse();
}

/**
 * Makes sure the log holds more than one page: the admin rejects threads the searches found until it
 * does, refreshing the curation once if they run short. Other specs decide the newest cards of the
 * queue at the same time (the keyboard walks go through the keyword search's first pages), so this
 * takes the oldest tag-search threads first, and the oldest keyword-search ones only after those.
 */
async function fillLogPastOnePage(admin: Page): Promise<void> {
  // A few past one page: an author may take an approved post out of the log meanwhile (authors.spec.ts).
  const wanted = MODERATION_LOG_PAGE_SIZE + 3;
  let missing = wanted - (await decisionsLogged(admin, wanted));
  for (let attempt = 0; missing > 0 && attempt < 5; attempt++) {
    const candidates = [
      ...(await pendingFrom(admin, 'public_tag')),
      ...(await pendingFrom(admin, 'public_search')),
    ];
    if (candidates.length < missing) {
      // A scheduled run may hold the lock for a moment (409): the next attempt tries again.
      await callApi(admin, '/api/admin/refresh', {});
    }
    for (const thread of candidates.slice(0, missing)) {
      const decided = await callApi(admin, '/api/threads/reject', {
        thread_id: thread.id,
        reason: `Low effort or too little to learn from (${run})`,
      });
      if (decided.status === 200) missing--;
    }
  }
  expect(missing).toBeLessThanOrEqual(0);
}

test("a member's rejected submission shows the admin's reason on /submit, and the public log lists it", async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/); // a curation run of another test may hold the lock for a moment
  const member = `reasoned_${run}`;
  const reason = `Not about design or UI (${run})`;

  // The member asks for an invite; the admin, signed in in a browser of its own, approves it.
  await signInAs(page, member);
  expect((await callApi(page, '/api/user/request-invite', {})).status).toBe(200);
  const admin = await signedInPage(newPage, 'admin');
  const { json: pending } = await callApi<{ users: { user_id: string; threads_username: string }[] }>(
    admin,
    '/api/admin/pending-users',
  );
  const request = pending.users.find((user) => user.threads_username === member);
  expect((await callApi(admin, '/api/admin/approve-user', { user_id: request?.user_id })).status).toBe(200);

  // The member submits a thread link on /submit; it is listed as pending.
  const link = `https://www.threads.com/@cafe_menus/post/REASON${run}`;
  await page.goto('/submit');
  const form = page.getByRole('form', { name: TEXTS.submitThread });
  await form.getByLabel(TEXTS.threadUrl).fill(link);
  await form.getByRole('button', { name: TEXTS.submitThread }).click();
  await expect(page.getByText(TEXTS.submitted)).toBeVisible();
  const submissions = page.getByRole('region', { name: TEXTS.yourSubmissions });
  const item = submissions.getByRole('listitem').filter({ has: page.getByRole('link', { name: link }) });
  await expect(item).toContainText('pending');
  await expect(item).not.toContainText(MODERATION_TEXTS.reason);

  // The admin rejects it with a reason, through the API with the admin's session. The queue and the
  // log carry the post's own link: the handle typed into it names no one (decision 063).
  const stored = `https://www.threads.com/t/REASON${run}`;
  const thread = await pendingThread(admin, stored);
  expect((await callApi(admin, '/api/threads/reject', { thread_id: thread.id, reason })).status).toBe(200);

  // After a reload the member reads the reason beside the status, in words, and when it was decided.
  await page.reload();
  await expect(item.locator('.badge')).toHaveText('rejected');
  await expect(item).toContainText(`${MODERATION_TEXTS.reason} ${reason}`);
  await expect(item.getByText(MODERATION_TEXTS.decided)).toBeVisible();
  await expect(item.locator('time')).toHaveCount(2);

  // A visitor finds the rejection in the public log, with its reason, loading more pages as needed.
  await fillLogPastOnePage(admin);
  const visitor = await newPage();
  await visitor.goto('/');
  await visitor.getByRole('contentinfo').getByRole('link', { name: MODERATION_TEXTS.footerLink }).click();
  await expect(visitor).toHaveURL(/\/moderation$/);
  await expect(visitor).toHaveTitle(/^Moderation log · /);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(MODERATION_TEXTS.title);
  const log = visitor.locator('ol.moderation-log > li');
  await expect(log).toHaveCount(MODERATION_LOG_PAGE_SIZE);
  const loadMore = visitor.getByRole('button', { name: MODERATION_TEXTS.loadMore });
  await loadMore.click();
  await expect.poll(() => log.count()).toBeGreaterThan(MODERATION_LOG_PAGE_SIZE);
  const entry = log.filter({ has: visitor.locator(`a[href="${stored}"]`) });
  while ((await entry.count()) === 0 && (await loadMore.isVisible())) {
    const before = await log.count();
    await loadMore.click();
    await expect.poll(() => log.count()).toBeGreaterThan(before);
  }
  await expect(entry).toContainText(MODERATION_TEXTS.rejected);
  await expect(entry).toContainText(`${MODERATION_TEXTS.reason} ${reason}`);
  await expect(entry.getByRole('link', { name: 'Threads post' })).toBeVisible();
  await expect(entry).not.toContainText('@cafe_menus');
  await expect(entry.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  // Nothing about the member who submitted it.
  await expect(visitor.locator('main')).not.toContainText(member);
  // At 320 px, long excerpts and reasons wrap: nothing overflows sideways.
  await visitor.setViewportSize({ width: 320, height: 800 });
  const overflow = await visitor.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
