import type { GeneratedPost } from '../../../contract/submission.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { dialogs, expect, signedInPage, signInAs, test } from '../fixtures.ts';
import { REVIEW_PAGE_SIZE, REVIEW_QUEUE_TEXTS } from '../../../contract/review-queue.ts';
import { signInApproved } from '../member-helpers.ts';
import { cardFor, liveRegion, openPendingReview, permalinkOf, refreshNow, tabCount } from './helpers.ts';

// One shared server database and one curation lock: these walks run curation and decide threads, in order.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const run = Date.now().toString(36).slice(-5);

test('the admin runs curation; the searches fill the queue; approve and reject take threads out of it', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of (409|500)/); // a scheduled run holding the lock; the routed failures below
  pageProblems.allow(/Failed to approve thread/); // logged by the routed failure (spec error catalogue)
  const seen = dialogs(page);
  await signInAs(page, 'admin');
  const panel = await openPendingReview(page);

  const control = panel.getByRole('region', { name: 'Curation' });
  await expect(control.getByText(TEXTS.loading)).toHaveCount(0);
  // Every curation permission granted: the account is one line, its permissions folded under it.
  const account = page.getByRole('region', { name: 'Curation account' });
  const permissions = account.locator('details.curation-account__details');
  await expect(permissions.locator('summary')).toHaveText('Permissions (4 granted)');
  await expect(account.getByRole('listitem').first()).toBeHidden();
  const queueReloaded = page.waitForResponse((response) =>
    response.url().endsWith('/api/threads/pending-review'),
  );
  await refreshNow(control);
  // The queue reloads after the run, without leaving the page; the tab counts the whole queue.
  const queue = (await (await queueReloaded).json()) as { threads: unknown[]; total: number };
  const before = queue.total;
  expect(queue.threads).toHaveLength(Math.min(before, REVIEW_PAGE_SIZE));
  await expect(page.getByRole('tab', { name: `Pending Review (${before})` })).toBeVisible();
  // The last run: its status and what it added on one line, its per-source counts and the searches
  // it used folded under it (open by itself only after a failure or errors).
  await expect(control.locator('.curation-run__summary')).toContainText(
    /Last run (succeeded|partial) finished .+ · \d+ new threads?$/,
  );
  const details = control.locator('details.curation-run__details');
  if ((await details.getAttribute('open')) === null) {
    await expect(control.getByRole('rowheader', { name: 'Keyword Search' })).toBeHidden();
    await details.getByText('Details of the last run').click();
  }
  await expect(control.getByRole('rowheader', { name: 'Keyword Search' })).toBeVisible();
  await expect(control.getByRole('rowheader', { name: 'Tag Search' })).toBeVisible();
  await expect(control.locator('.curation-run__facts')).toContainText(/Searches used\s*[1-9]/);

  const cards = panel.locator('.review-card');
  const keyword = cards.filter({ hasText: 'Keyword Search' }).first();
  const tag = cards.filter({ hasText: 'Tag Search' }).first();
  await expect(keyword).toBeVisible();
  await expect(tag).toBeVisible();
  const link = keyword.getByRole('link', { name: TEXTS.viewOnThreads });
  await expect(link).toHaveAttribute('href', /^https:\/\/www\.threads\.com\/@[^/]+\/post\/[\w-]+$/);
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(keyword.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  const image = cards.locator('img.review-row__thumb').first();
  await expect(image).toHaveAttribute('loading', 'lazy');
  await expect(image).toHaveAttribute('width', /\d+/);
  await expect(image).toHaveAttribute('alt', /^Attachment shared by /);

  expect(before).toBeGreaterThanOrEqual(2);
  await expect(cards).toHaveCount(Math.min(before, REVIEW_PAGE_SIZE));

  // Approve: the message in the live region (never a dialog), the card leaves, the count drops by one.
  const approvedHref = await permalinkOf(keyword);
  const approved = cardFor(panel, approvedHref);
  await approved.getByRole('button', { name: TEXTS.approve }).click();
  await expect(approved).toHaveCount(0);
  await expect(liveRegion(page)).toHaveText(TEXTS.threadApproved);
  await expect(page.getByRole('tab', { name: `Pending Review (${before - 1})` })).toBeVisible();

  // Reject: Reject asks why (Reject again: the first preset), both buttons are disabled while the
  // decision is in flight, then the card leaves.
  const rejectedHref = await permalinkOf(tag);
  const rejected = cardFor(panel, rejectedHref);
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/threads/reject', async (route) => {
    await gate;
    await route.continue();
  });
  await rejected.getByRole('button', { name: TEXTS.reject }).click();
  await expect(rejected.getByRole('group', { name: 'Why reject?' })).toBeVisible();
  await rejected.getByRole('button', { name: TEXTS.reject }).click();
  await expect(rejected.getByRole('button', { name: TEXTS.reject })).toBeDisabled();
  await expect(rejected.getByRole('button', { name: TEXTS.approve })).toBeDisabled();
  release();
  await expect(rejected).toHaveCount(0);
  await expect(liveRegion(page)).toHaveText(TEXTS.threadRejected);
  await expect(page.getByRole('tab', { name: `Pending Review (${before - 2})` })).toBeVisible();
  await page.unroute('**/api/threads/reject');

  // A failed approval keeps the card; an answer 'already decided' (409) takes it out of the list.
  const thirdHref = await permalinkOf(cards.first());
  const third = cardFor(panel, thirdHref);
  await page.route('**/api/threads/approve', (route) =>
    route.fulfill({ status: 500, json: { detail: 'Something went wrong on our side.' } }),
  );
  await third.getByRole('button', { name: TEXTS.approve }).click();
  await expect(liveRegion(page)).toHaveText(TEXTS.threadApproveFailed);
  await expect(third).toHaveCount(1);
  await expect(third.getByRole('button', { name: TEXTS.approve })).toBeEnabled();
  await page.unroute('**/api/threads/approve');
  await page.route('**/api/threads/approve', (route) =>
    route.fulfill({ status: 409, json: { detail: 'This thread was already decided (approved).' } }),
  );
  await third.getByRole('button', { name: TEXTS.approve }).click();
  await expect(third).toHaveCount(0);
  await expect(liveRegion(page)).toHaveText(REVIEW_QUEUE_TEXTS.alreadyDecided);
  await page.unroute('**/api/threads/approve');
  expect(seen).toEqual([]); // no blocking dialog at any point (decision 013)

  // The decisions are stored: after a reload, neither thread is pending any more.
  const reloaded = await openPendingReview(page);
  await expect(reloaded.locator('.review-card').first()).toBeVisible();
  for (const href of [approvedHref, rejectedHref]) await expect(cardFor(reloaded, href)).toHaveCount(0);
  await expect(cardFor(reloaded, thirdHref)).toHaveCount(1); // the routed 409 decided nothing
});

test('Refresh now shows why it cannot run, and Refreshing... while it runs', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/);
  await signInAs(page, 'admin');
  const panel = await openPendingReview(page);
  const control = panel.getByRole('region', { name: 'Curation' });
  await expect(control.getByText(TEXTS.loading)).toHaveCount(0);

  const busy = 'A curation run is already in progress. Try again in a minute.';
  await page.route('**/api/admin/refresh', (route) => route.fulfill({ status: 409, json: { detail: busy } }));
  await control.getByRole('button', { name: 'Refresh now' }).click();
  await expect(control.getByRole('alert')).toHaveText(busy);
  await page.unroute('**/api/admin/refresh');

  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/admin/refresh', async (route) => {
    await gate;
    await route.continue();
  });
  await control.getByRole('button', { name: 'Refresh now' }).click();
  await expect(control.getByRole('button', { name: 'Refreshing...' })).toBeDisabled();
  await expect(control.getByRole('alert')).toHaveCount(0);
  release();
  // The scheduled run may hold the lock just now: either way the control ends enabled with a message.
  await expect(control.getByRole('button', { name: 'Refresh now' })).toBeEnabled({ timeout: 60_000 });
  await expect(control.getByText(/^Curation run finished|already in progress/)).toBeVisible();
});

test('an approved member finds their own posts in My Threads after a run, badged Your Post', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of (403|404|409)/); // member's admin-only calls; profile lookup; the lock
  const member = `dana_${run}`;
  await signInAs(page, member);
  await page.goto('/request-invite');
  await page.getByRole('button', { name: TEXTS.requestInvite }).click();
  await expect(page.getByRole('heading', { name: TEXTS.invitePending })).toBeVisible();

  const admin = await signedInPage(newPage, 'admin');
  const adminDialogs = dialogs(admin);
  await admin.goto('/dashboard');
  await admin.getByRole('tab', { name: /^Pending Users/ }).click();
  await admin
    .locator('.pending-user', { hasText: `@${member}` })
    .getByRole('button', { name: TEXTS.approveUser })
    .click();
  await expect(liveRegion(admin)).toHaveText(TEXTS.userApproved);
  expect(adminDialogs).toEqual([]);

  const panel = await openPendingReview(admin);
  await expect(panel.getByRole('region', { name: 'Curation' }).getByText(TEXTS.loading)).toHaveCount(0);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  // The member's own posts reach the review queue too, as 'Your Post' (filtered: the queue shows 25 at
  // a time, and other specs' threads may fill the first page).
  const filtered = admin.waitForResponse((r) =>
    r.url().includes('/api/threads/pending-review?source=user_own'),
  );
  await panel.getByLabel(REVIEW_QUEUE_TEXTS.sourceLabel).selectOption('user_own');
  await filtered;
  const queued = panel.locator('.review-card', { hasText: `@${member}` });
  await expect(queued.first()).toContainText('Your Post');
  // The run's per-source counts name it too (folded under the run's line unless it had errors).
  await expect(panel.locator('.curation-run__counts th[scope="row"]', { hasText: 'Your Post' })).toHaveCount(
    1,
  );

  await page.goto('/dashboard');
  await expect(page.getByRole('tab', { name: /^My Threads \([1-9]\d*\)$/ })).toBeVisible();
  const own = await tabCount(page, 'My Threads');
  expect(own).toBeGreaterThanOrEqual(6); // the simulated provider gives everyone 6 to 12 posts
  await page.getByRole('tab', { name: `My Threads (${own})` }).click();
  const mine = page.getByRole('tabpanel').locator('.review-card');
  await expect(mine).toHaveCount(own);
  for (const card of await mine.all()) {
    await expect(card).toContainText(`@${member}`);
    await expect(card.locator('.review-card__source')).toHaveText('Your Post');
    // Members grant threads_basic only (decision 024): no insights, so no counts on their own posts.
    await expect(card).not.toContainText(/\d+(\.\d)?[kM]? (like|likes)/);
    await expect(card.getByRole('button')).toHaveCount(0); // no actions on one's own threads
  }
  // Own posts are newest first.
  const times = await mine
    .locator('time')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('datetime') ?? ''));
  expect([...times].sort().reverse()).toEqual(times);

  // One definition of the counts (issue 20): the dashboard lists all of them and says how many are
  // in the catalogue, the number the profile shows, which says where the rest are.
  await expect(page.getByRole('tabpanel')).toContainText(
    `${own} threads of yours: 0 in the catalogue, ${own} waiting for review.`,
  );
  await page.getByRole('link', { name: TEXTS.ownThreadsProfileLink }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.getByRole('tab', { name: 'My Threads (0)' }).click();
  await expect(page.getByRole('tabpanel')).toContainText(TEXTS.ownThreadsCounted);
  await page.getByRole('link', { name: TEXTS.ownThreadsDashboardLink }).click();
  await expect(page.getByRole('tab', { name: `My Threads (${own})`, selected: true })).toBeVisible();
});

test('a member who is not an admin: no queue and no curation control, empty My Threads, Try Again', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 500/); // the routed failure
  await page.route('**/api/user/threads', (route) =>
    route.fulfill({ status: 500, json: { detail: 'The database is not answering.' } }),
  );
  await signInAs(page, `erin_${run}`);
  await page.goto('/dashboard');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('alert')).toContainText('The database is not answering.');
  await page.unroute('**/api/user/threads');
  await panel.getByRole('button', { name: TEXTS.tryAgain }).click();
  await expect(panel).toHaveText(TEXTS.noOwnThreads);
  await expect(page.getByRole('tab', { name: 'My Threads (0)' })).toBeVisible();

  // Only the tabs a non-admin can use (issue 10); not yet a member: the invite state in Manual Submissions.
  await expect(page.getByRole('tab')).toHaveText(['My Threads (0)', 'Manual Submissions (0)']);
  await expect(page.getByRole('button', { name: 'Refresh now' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Manual Submissions (0)' }).click();
  await expect(panel.getByRole('link', { name: 'Request an invite' })).toHaveAttribute(
    'href',
    '/request-invite',
  );
});

test("the last curation run's failed load says so; a run started here shows itself instead", async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of (409|500)/); // the routed failure; a scheduled run holding the lock
  await page.route('**/api/admin/runs', (route) =>
    route.fulfill({ status: 500, json: { detail: 'The database is not answering.' } }),
  );
  await signInAs(page, 'admin');
  const control = (await openPendingReview(page)).getByRole('region', { name: 'Curation' });
  await expect(control).toContainText('Failed to load the curation runs.');
  await refreshNow(control);
  await expect(control).not.toContainText('Failed to load the curation runs.');
  await expect(control.locator('.curation-run__summary')).toContainText(/Last run \w+ finished/);
  await expect(
    control.locator('.curation-run__counts th[scope="row"]', { hasText: 'Keyword Search' }),
  ).toHaveCount(1);
});

const POSTS: GeneratedPost[] = [
  {
    id: '6a2f1d2e-0000-4000-8000-000000000001',
    content: 'A published feature about grid systems.',
    media_url: '/sample/images/design-01.webp',
    thread_url: 'https://www.threads.com/@curator/post/PUBLISHED01',
    status: 'published',
    created_at: '2026-11-19T10:00:00.000Z',
    source_url: 'https://www.threads.com/@someone/post/SOURCE00001',
    error: null,
  },
  {
    id: '6a2f1d2e-0000-4000-8000-000000000002',
    content: 'Waiting to be published.',
    media_url: null,
    thread_url: null,
    status: 'pending',
    created_at: '2026-11-18T10:00:00.000Z',
    source_url: 'https://www.threads.com/@someone/post/SOURCE00002',
    error: null,
  },
  {
    id: '6a2f1d2e-0000-4000-8000-000000000003',
    content: 'This one did not make it.',
    media_url: null,
    thread_url: null,
    status: 'failed',
    created_at: '2026-11-17T10:00:00.000Z',
    source_url: 'https://www.threads.com/@someone/post/SOURCE00003',
    error: 'The Threads API refused the post.',
  },
];

test('Manual Submissions: status badges, media, links and failure reasons; a red banner when the call fails', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 500/);
  await page.route('**/api/dashboard/generated-posts', (route) => route.fulfill({ json: { posts: POSTS } }));
  await signInApproved(page, newPage, `fay_${run}`);
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'Manual Submissions (3)' }).click();
  const panel = page.getByRole('tabpanel');
  const cards = panel.locator('.generated-post');
  await expect(cards).toHaveCount(3);
  await expect(panel.getByRole('link', { name: 'Submit a thread' })).toHaveAttribute('href', '/submit');

  const [published, pending, failed] = [cards.nth(0), cards.nth(1), cards.nth(2)];
  await expect(published.locator('.badge')).toHaveText('published');
  await expect(published.locator('.badge')).toHaveClass(/badge--green/);
  await expect(published.locator('img')).toHaveAttribute('src', '/sample/images/design-01.webp');
  await expect(published.getByRole('link', { name: TEXTS.viewOnThreads })).toHaveAttribute(
    'href',
    POSTS[0]?.thread_url ?? '',
  );
  await expect(published.getByRole('link', { name: 'Featured thread' })).toHaveAttribute(
    'href',
    POSTS[0]?.source_url ?? '',
  );
  await expect(pending.locator('.badge')).toHaveClass(/badge--yellow/);
  await expect(pending.getByRole('link', { name: TEXTS.viewOnThreads })).toHaveCount(0);
  await expect(pending.locator('img')).toHaveCount(0);
  await expect(failed.locator('.badge')).toHaveClass(/badge--gray/);
  await expect(failed).toContainText('The Threads API refused the post.');

  await page.unroute('**/api/dashboard/generated-posts');
  await page.route('**/api/dashboard/generated-posts', (route) =>
    route.fulfill({ status: 500, json: { detail: 'x' } }),
  );
  await page.reload();
  await page.getByRole('tab', { name: 'Manual Submissions (0)' }).click();
  await expect(page.getByRole('tabpanel').getByRole('alert')).toHaveText(TEXTS.manualSubmissionsFailed);
  await expect(page.getByRole('tabpanel').getByRole('link', { name: 'Submit a thread' })).toBeVisible();

  // Try Again loads the list again in place: once the server answers, the posts are back.
  await page.unroute('**/api/dashboard/generated-posts');
  await page.route('**/api/dashboard/generated-posts', (route) => route.fulfill({ json: { posts: POSTS } }));
  await page.getByRole('tabpanel').getByRole('button', { name: TEXTS.tryAgain }).click();
  await expect(page.getByRole('tabpanel').locator('.generated-post')).toHaveCount(3);
  await expect(page.getByRole('tab', { name: 'Manual Submissions (3)' })).toBeVisible();
});
