import type { Page } from '@playwright/test';
import { NOTICE_MAIL_TEXTS as T, type NoticeMailState } from '../../contract/notice-mail.ts';
import { expect, test } from './fixtures.ts';
import { signInApproved } from './member-helpers.ts';

// 'Notices by e-mail' on /profile (decision 058). These servers run without SMTP_URL, so the real
// answer is the no-mail state; the form's own states are driven by answers the test gives the page.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

const run = Date.now().toString(36).slice(-5);
const section = (page: Page) => page.getByRole('region', { name: T.heading });

test('without mail on the server the section says so and offers no controls', async ({ page, newPage }) => {
  await signInApproved(page, newPage, `nomail_${run}`);
  await page.goto('/profile');
  await expect(section(page)).toContainText(T.noMail);
  await expect(section(page).getByRole('textbox')).toHaveCount(0);
  await expect(section(page).getByRole('button')).toHaveCount(0);
  await expect(section(page).getByRole('checkbox')).toHaveCount(0);
});

test('the form: a bad address said beside its field, then Save said in the status line; a failed load offers Try again', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 500/); // the failed load this test asks for
  await signInApproved(page, newPage, `mailform_${run}`);
  const empty: NoticeMailState = { available: true, address: null, enabled: false, confirmed: false };
  let saved: unknown = null;
  let failLoad = true;
  await page.route('**/api/user/notice-mail', async (route) => {
    const request = route.request();
    if (request.method() === 'GET')
      return failLoad
        ? route.fulfill({ status: 500, json: { detail: 'x' } })
        : route.fulfill({ json: empty });
    saved = request.postDataJSON();
    return route.fulfill({
      json: {
        available: true,
        address: 'me@example.com',
        enabled: true,
        confirmed: false,
        message: T.checkInbox,
      },
    });
  });
  await page.goto('/profile');
  const alert = section(page).getByRole('alert');
  await expect(alert).toContainText(T.loadFailed);
  failLoad = false;
  await alert.getByRole('button').click();

  const field = section(page).getByRole('textbox', { name: T.addressLabel });
  await expect(section(page)).toContainText(T.none);
  await field.fill('not an address');
  await section(page).getByRole('button', { name: T.save }).click();
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(section(page).locator('#notice-mail-error')).toHaveText(
    'The address must be an e-mail address.',
  );
  expect(saved).toBeNull();

  await field.fill('me@example.com');
  await expect(section(page).getByRole('checkbox', { name: T.enabledLabel })).toBeChecked();
  // Keyboard only: Enter in the field saves.
  await field.press('Enter');
  await expect(section(page).getByRole('status').last()).toHaveText(T.checkInbox);
  expect(saved).toEqual({ email: 'me@example.com', enabled: true });
  await expect(section(page)).toContainText(T.waiting);
  await expect(section(page).getByRole('button', { name: T.remove })).toBeVisible();
});
