import type { Page } from '@playwright/test';
import { MEMBER_TEXTS } from '../../contract/membership.ts';
import { TEXTS } from '../../contract/texts.ts';
import { expect, signInAs, test } from './fixtures.ts';
import {
  callApi,
  decideInvite,
  isAdminCall,
  recordApiCalls,
  signInApproved,
  signInPending,
} from './member-helpers.ts';

// Members' states (issue 10): what each kind of signed-in person sees on /submit and the dashboard.
// One shared server database: these walks create and decide invite requests, so they run in order.
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36).slice(-5);

/** The dashboard once its tabs are shown; returns the tab names. */
async function dashboardTabs(page: Page): Promise<string[]> {
  await page.goto('/dashboard');
  await expect(page.getByRole('tablist', { name: 'Dashboard sections' })).toBeVisible();
  await expect(page.getByRole('tabpanel').getByText(TEXTS.loading)).toHaveCount(0);
  return page.getByRole('tab').allTextContents();
}

test("an unapproved member's /submit shows the invite state and no form: none, pending, declined", async ({
  page,
  newPage,
}) => {
  const member = `waiting_${run}`;
  await signInAs(page, member);
  const calls = recordApiCalls(page);
  await page.goto('/submit');
  const main = page.locator('main');
  await expect(main.getByRole('heading', { name: MEMBER_TEXTS.noInviteTitle })).toBeVisible();
  await expect(main).toContainText(MEMBER_TEXTS.noInvite);
  await expect(main.getByRole('link', { name: MEMBER_TEXTS.requestInviteLink })).toHaveAttribute(
    'href',
    '/request-invite',
  );
  await expect(page.getByRole('form')).toHaveCount(0);
  await expect(main.getByRole('textbox')).toHaveCount(0);
  await expect(main.getByRole('button', { name: TEXTS.submitThread })).toHaveCount(0);

  expect((await callApi(page, '/api/user/request-invite', {})).status).toBe(200);
  await page.reload();
  await expect(main.getByRole('heading', { name: TEXTS.invitePending })).toBeVisible();
  await expect(main).toContainText(TEXTS.reviewTime);
  await expect(main.getByRole('link', { name: TEXTS.checkStatus })).toHaveAttribute(
    'href',
    '/request-invite',
  );
  await expect(page.getByRole('form')).toHaveCount(0);

  await decideInvite(newPage, member, false);
  await page.reload();
  await expect(main.getByRole('heading', { name: TEXTS.inviteDeclined })).toBeVisible();
  await expect(page.getByRole('form')).toHaveCount(0);
  await expect(main.getByRole('textbox')).toHaveCount(0);
  // Nothing a member-only route would refuse was asked for: no 403 behind the page.
  expect(calls.filter((path) => path.startsWith('/api/dashboard/'))).toEqual([]);
  expect(calls).toContain('/api/user/me');
});

test("a plain member's dashboard has My Threads and Manual Submissions, and never calls the admin endpoints", async ({
  page,
  newPage,
}) => {
  await signInApproved(page, newPage, `plain_${run}`);
  const calls = recordApiCalls(page);
  expect(await dashboardTabs(page)).toEqual(['My Threads (0)', 'Manual Submissions (0)']);
  await page.getByRole('tab', { name: 'Manual Submissions (0)' }).click();
  await expect(page.getByRole('tabpanel')).toContainText(TEXTS.noManualSubmissions);
  // An admin tab in the hash is not a way in: the dashboard falls back to My Threads.
  await page.goto('/dashboard#pending-users');
  await expect(page.getByRole('tab', { selected: true })).toHaveText('My Threads (0)');
  await expect(page.getByRole('tab')).toHaveCount(2);
  expect(calls).toContain('/api/dashboard/generated-posts');
  expect(calls.filter(isAdminCall)).toEqual([]);
});

test('a member waiting for an invite: the same two tabs, the invite state in Manual Submissions, no refused calls', async ({
  page,
}) => {
  await signInPending(page, `pending_${run}`);
  const calls = recordApiCalls(page);
  expect(await dashboardTabs(page)).toEqual(['My Threads (0)', 'Manual Submissions (0)']);
  await expect(page.getByRole('tabpanel')).toHaveText(TEXTS.noOwnThreads);
  await page.getByRole('tab', { name: 'Manual Submissions (0)' }).click();
  await expect(page.getByRole('tabpanel').getByRole('heading', { name: TEXTS.invitePending })).toBeVisible();
  expect(calls.filter((path) => isAdminCall(path) || path.startsWith('/api/dashboard/'))).toEqual([]);
});

test("an admin's dashboard has five tabs; arrow keys move and select, the hash follows and is restored", async ({
  page,
}) => {
  await signInAs(page, 'admin');
  const names = await dashboardTabs(page);
  expect(names.map((name) => name.replace(/ \(\d+\)$/, ''))).toEqual([
    'My Threads',
    'Pending Review',
    'Manual Submissions',
    'Pending Users',
    'Digest',
  ]);
  // The Digest tab has no count: it loads its draft when opened.
  const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}( \\(\\d+\\))?$`) });
  /** The selected tab: focused, the only one in the Tab order, its panel shown, its hash in the URL. */
  async function expectSelected(name: string, hash: string) {
    await expect(tab(name)).toHaveAttribute('aria-selected', 'true');
    await expect(tab(name)).toBeFocused();
    await expect(tab(name)).toHaveAttribute('tabindex', '0');
    await expect(page.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
    const panelId = await tab(name).getAttribute('aria-controls');
    await expect(page.getByRole('tabpanel')).toHaveAttribute('id', panelId ?? 'missing');
    await expect(page.getByRole('tabpanel')).toHaveAttribute(
      'aria-labelledby',
      (await tab(name).getAttribute('id')) ?? '',
    );
    await expect(page).toHaveURL(new RegExp(`/dashboard/?#${hash}$`));
  }

  // An admin's dashboard opens on the queue.
  await expect(tab('Pending Review')).toHaveAttribute('aria-selected', 'true');
  await tab('Pending Review').focus();
  await page.keyboard.press('ArrowLeft');
  await expectSelected('My Threads', 'my-threads');
  await page.keyboard.press('ArrowRight');
  await expectSelected('Pending Review', 'pending-review');
  await page.keyboard.press('End');
  await expectSelected('Digest', 'digest');
  await page.keyboard.press('Home');
  await expectSelected('My Threads', 'my-threads');
  await page.keyboard.press('ArrowLeft'); // wraps around
  await expectSelected('Digest', 'digest');
  await page.keyboard.press('ArrowLeft');
  await expectSelected('Pending Users', 'pending-users');
  await page.keyboard.press('ArrowLeft');
  await expectSelected('Manual Submissions', 'manual-submissions');
  await expect(tab('Pending Users')).toHaveAttribute('tabindex', '-1');

  await page.reload();
  await expect(tab('Manual Submissions')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'tab-manual');

  // A link or Back changes the hash: the tab follows.
  await page.evaluate(() => (window.location.hash = '#pending-users'));
  await expect(tab('Pending Users')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText(/No pending users\.|Approve User/);
  await page.goBack();
  await expect(tab('Manual Submissions')).toHaveAttribute('aria-selected', 'true');
});

test('the header @username goes to /profile', async ({ page, newPage }) => {
  const member = `header_${run}`;
  await signInApproved(page, newPage, member);
  const link = page.getByRole('banner').getByRole('link', { name: `@${member}` });
  await expect(link).toHaveAttribute('href', '/profile');
  await link.click();
  await expect(page).toHaveURL(/\/profile\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.myProfile);
  await expect(page.getByRole('banner').getByRole('link', { name: `@${member}` })).toHaveAttribute(
    'aria-current',
    'page',
  );
});
