import type { Page } from '@playwright/test';
import { USERNAME_MESSAGES } from '../../contract/profile-rules.ts';
import { TEXTS } from '../../contract/texts.ts';
import { dialogs, expect, signedInPage, signInAs, test, type NewPage } from './fixtures.ts';

// One shared server database: these walks create and decide invite requests, so they run in order.
// The first waits up to a minute for the background rebuild, so the walks get more than the default 30 s.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const run = Date.now().toString(36).slice(-5);

/** A second browser (its own cookies and storage): the admin beside the member, on the dashboard. */
async function adminPage(newPage: NewPage): Promise<Page> {
  const page = await signedInPage(newPage, 'admin');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.dashboard);
  return page;
}

/** Waits for the background rebuild to pre-render `pathname` and returns the page's HTML as served. */
async function prerendered(page: Page, pathname: string): Promise<string> {
  await expect.poll(async () => (await page.request.get(pathname)).status(), { timeout: 60_000 }).toBe(200);
  return (await page.request.get(pathname)).text();
}

test('a member asks for an invite, the admin approves, the member edits the profile and sees the public page', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/); // the profile lookups of names that do not exist
  const member = `alice_${run}`;
  await signInAs(page, member);
  await page.goto('/request-invite');
  await page.getByRole('button', { name: TEXTS.requestInvite }).click();
  // The button is gone: the heading of the new state has the focus, not the page.
  await expect(page.getByRole('heading', { name: TEXTS.invitePending })).toBeFocused();
  await expect(page.locator('main')).toContainText('1-2 business days');

  const admin = await adminPage(newPage);
  const adminDialogs = dialogs(admin);
  await expect(admin.locator('main')).toContainText(`${TEXTS.loggedInAs} @admin`);
  await admin.getByRole('tab', { name: /Pending Users \(\d+\)/ }).click();
  const card = admin.locator('.pending-user', { hasText: `@${member}` });
  await expect(card).toContainText(member); // display username starts as the Threads username
  await expect(card.getByRole('link', { name: TEXTS.viewProfile })).toHaveAttribute(
    'href',
    `https://www.threads.com/@${member}`,
  );
  await card.getByRole('button', { name: TEXTS.approveUser }).click();
  await expect(card).toHaveCount(0);
  // The decided request left with the focused button: the next request's Approve User, or the
  // empty list's line, has the focus (other walks may have requests waiting).
  await expect
    .poll(() =>
      admin.evaluate(
        (texts: string[]) => texts.includes(document.activeElement?.textContent?.trim() ?? ''),
        [TEXTS.approveUser, TEXTS.noPendingUsers],
      ),
    )
    .toBe(true);
  // The spec's alert text, in a live region instead of a blocking dialog (decision 013).
  await expect(admin.locator('.live-alert[role="alert"]')).toHaveText(TEXTS.userApproved);
  expect(adminDialogs).toEqual([]);

  await page.getByRole('button', { name: TEXTS.checkStatus }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.myProfile);
  await expect(page.locator('.status-banner')).toHaveText('Approved');

  await page.getByRole('button', { name: TEXTS.editProfile }).click();
  const name = page.getByLabel('Display username');
  const bio = page.getByLabel('Bio');
  for (const [value, message] of [
    ['ab', USERNAME_MESSAGES.length],
    ['bad.name', USERNAME_MESSAGES.characters],
    ['Dashboard', USERNAME_MESSAGES.reserved],
  ] as const) {
    await name.fill(value);
    await page.getByRole('button', { name: TEXTS.saveChanges }).click();
    await expect(page.locator('#display-username-error')).toHaveText(message);
  }
  await name.fill(`Alice_D_${run}`);
  await bio.fill('x'.repeat(301));
  await page.getByRole('button', { name: TEXTS.saveChanges }).click();
  await expect(page.locator('#bio-error')).toHaveText('Bio must be at most 300 characters.');
  await bio.fill('Designs <b>grids</b> and type.');
  await page.getByRole('button', { name: TEXTS.saveChanges }).click();
  await expect(page.locator('.profile-facts')).toContainText(`Alice_D_${run}`);
  await expect(page.locator('.profile-facts')).toContainText('Designs <b>grids</b> and type.');

  await page.getByRole('tab', { name: 'My Gems (0)' }).click();
  await expect(page.getByRole('tabpanel')).toContainText(TEXTS.noGems);
  await page.getByRole('tab', { name: 'My Threads (0)' }).click();
  await expect(page.getByRole('tabpanel')).toContainText(TEXTS.noThreadsPosted);

  await page.getByRole('link', { name: 'View your live profile' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`@Alice_D_${run}`);
  await expect(page.locator('main')).toContainText('Designs <b>grids</b> and type.');
  await expect(page.getByRole('link', { name: `@${member} on Threads` })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Gems (0)' })).toBeVisible();

  // The server rebuilds the site in the background: the profile then has a page of its own, in the HTML.
  const html = await prerendered(page, `/Alice_D_${run}`);
  expect(html).toContain('Designs &lt;b&gt;grids&lt;/b&gt; and type.');
  await page.goto(`/Alice_D_${run}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`@Alice_D_${run}`);
  await expect(page.getByRole('tab', { name: 'Gems (0)' })).toBeVisible();

  // Logging out from a protected page ends on the home page (spec), not on the page's own redirect.
  await page.goto('/profile');
  await page.getByRole('button', { name: TEXTS.logout }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: TEXTS.login })).toBeVisible();

  await page.goto('/nobody_by_that_name');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.profileNotFound);
  await page.getByRole('button', { name: TEXTS.backToHome }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('rejecting asks for confirmation first, beside the buttons; the member then sees Invite Declined', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/); // GET /api/user/profile answers 404 before the first request (spec)
  const member = `bob_${run}`;
  await signInAs(page, member);
  await page.goto('/request-invite');
  await page.getByRole('button', { name: TEXTS.requestInvite }).click();
  await expect(page.getByRole('heading', { name: TEXTS.invitePending })).toBeVisible();

  const admin = await adminPage(newPage);
  const seen = dialogs(admin);
  await admin.getByRole('tab', { name: /Pending Users/ }).click();
  const card = admin.locator('.pending-user', { hasText: `@${member}` });
  // The spec's question, asked inline (decision 013): Cancel (focused first) and Escape decide nothing.
  await card.getByRole('button', { name: TEXTS.reject }).click();
  const confirm = card.getByRole('group', { name: 'Confirm rejection' });
  await expect(confirm).toContainText(TEXTS.rejectUserConfirm);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await admin.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  // The focus goes back to the Reject button that asked.
  await expect(card.getByRole('button', { name: TEXTS.reject })).toBeFocused();
  await card.getByRole('button', { name: TEXTS.reject }).click();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toHaveCount(1);
  await card.getByRole('button', { name: TEXTS.reject }).click();
  await confirm.getByRole('button', { name: TEXTS.reject }).click();
  await expect(card).toHaveCount(0);
  await expect(admin.locator('.live-alert[role="alert"]')).toHaveText(TEXTS.userRejected);
  expect(seen).toEqual([]);

  await page.getByRole('button', { name: TEXTS.checkStatus }).click();
  await expect(page.getByRole('heading', { name: TEXTS.inviteDeclined })).toBeVisible();
});

test('signed out, protected pages show Loading... and leave: /dashboard for home, /profile for the invite page', async ({
  page,
}) => {
  for (const path of ['/dashboard', '/profile']) {
    // What a visitor sees before the check completes: the pre-rendered 'Loading...'.
    expect(await (await page.request.get(path)).text()).toContain(`>${TEXTS.loading}<`);
  }
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/request-invite$/);
  await expect(page.getByRole('heading', { name: TEXTS.join })).toBeVisible();
  await expect(page.getByRole('button', { name: TEXTS.goToLogin })).toBeVisible();
});

test('a member who is not an admin sees no admin tabs (no Pending Users), and is asked for no 403', async ({
  page,
}) => {
  await signInAs(page, `carol_${run}`);
  await page.goto('/dashboard');
  await expect(page.getByRole('tab')).toHaveText(['My Threads (0)', 'Manual Submissions (0)']);
  await expect(page.getByRole('tabpanel')).toHaveText(TEXTS.noOwnThreads);
  await page.getByRole('tab', { name: 'Manual Submissions (0)' }).click();
  // Not a member yet: the invite state, with the way to ask for one (decision 016).
  await expect(page.getByRole('tabpanel').getByRole('link', { name: 'Request an invite' })).toHaveAttribute(
    'href',
    '/request-invite',
  );
});

const XSS_BIO = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '"><svg onload=alert(3)>',
  'javascript:alert(4)',
].join(' ');

test('script in a bio stays text everywhere it is shown; nothing runs', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/);
  const member = `xss_${run}`;
  const opened: string[] = [];
  await signInAs(page, member);
  await page.goto('/request-invite');
  await page.getByRole('button', { name: TEXTS.requestInvite }).click();
  await expect(page.getByRole('heading', { name: TEXTS.invitePending })).toBeVisible();

  const admin = await adminPage(newPage);
  dialogs(admin);
  await admin.getByRole('tab', { name: /Pending Users/ }).click();
  await admin
    .locator('.pending-user', { hasText: `@${member}` })
    .getByRole('button', { name: TEXTS.approveUser })
    .click();

  page.on('dialog', (dialog) => {
    opened.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto('/profile');
  await page.getByRole('button', { name: TEXTS.editProfile }).click();
  await page.getByLabel('Bio').fill(XSS_BIO);
  await page.getByRole('button', { name: TEXTS.saveChanges }).click();
  await expect(page.locator('.profile-facts')).toContainText(XSS_BIO);

  // Through the 404 page's lookup first, then on the page pre-rendered by the rebuild.
  await page.goto(`/${member}`);
  await expect(page.locator('main')).toContainText(XSS_BIO);
  await prerendered(page, `/${member}`);
  await page.goto(`/${member}`);
  await expect(page.locator('main')).toContainText(XSS_BIO);
  // Its preview picture is the member's own, drawn from the same bio (decision 048).
  const preview = `/social/profile/${member}.png`;
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
    'content',
    new URL(preview, page.url()).href,
  );
  const picture = await page.request.get(preview);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/png');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('main img[src="x"], main svg[onload]').count()).toBe(0);
  expect(opened).toEqual([]);
});

test('the invite page recovers from failures: Try Again after a failed check, the server detail after a failed request', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of (404|500|503)/);
  await signInAs(page, `erin_${run}`);
  await page.route('**/api/user/profile', (route) => route.fulfill({ status: 500, json: { detail: 'x' } }));
  await page.goto('/request-invite');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(TEXTS.profileStatusFailed);
  await page.unroute('**/api/user/profile');
  await alert.getByRole('button', { name: TEXTS.tryAgain }).click();
  await expect(page.getByRole('button', { name: TEXTS.requestInvite })).toBeVisible();

  await page.route('**/api/user/request-invite', (route) =>
    route.fulfill({
      status: 503,
      json: { detail: 'The service is temporarily unavailable. Please try again in a moment.' },
    }),
  );
  await page.getByRole('button', { name: TEXTS.requestInvite }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'The service is temporarily unavailable. Please try again in a moment.',
  );
  await page.unroute('**/api/user/request-invite');
  await page.getByRole('button', { name: TEXTS.requestInvite }).click();
  await expect(page.getByRole('heading', { name: TEXTS.invitePending })).toBeVisible();

  // Check Status failing: its button is gone, and the focus goes to Try Again, not to the page; the
  // retry that works hands it to the new state's heading.
  await page.route('**/api/user/profile', (route) => route.fulfill({ status: 500, json: { detail: 'x' } }));
  await page.getByRole('button', { name: TEXTS.checkStatus }).click();
  const retry = page.getByRole('alert').getByRole('button', { name: TEXTS.tryAgain });
  await expect(retry).toBeFocused();
  await page.unroute('**/api/user/profile');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: TEXTS.invitePending })).toBeFocused();
});
