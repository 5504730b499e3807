import { DELETION_STATUS_TEXT } from '../../contract/data-deletion.ts';
import { TEXTS } from '../../contract/texts.ts';
import { expect, signInAs, test } from './fixtures.ts';

test('removing the app on (simulated) Threads deletes the account; the status page confirms it', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 401/); // the stored user no longer verifies: the browser signs out (spec)
  const username = `dana_${Date.now().toString(36).slice(-5)}`;
  await signInAs(page, username);
  await page.goto('/simulated-threads/settings/apps');
  await page.getByLabel('Threads username').fill(username);
  await page.getByRole('button', { name: 'Remove app' }).click();
  await page.getByRole('link', { name: 'Check the deletion status' }).click();

  await expect(page).toHaveURL(/\/data-deletion-status\?code=[a-f0-9]{32}$/);
  await expect(page.getByRole('heading', { name: DELETION_STATUS_TEXT.completed.title })).toBeVisible();
  await expect(page.locator('main')).toContainText(DELETION_STATUS_TEXT.completed.message);
  // The session went with the account.
  await expect(page.getByRole('button', { name: TEXTS.login })).toBeVisible();
  await page.getByRole('link', { name: TEXTS.returnToHome }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('without a code the status page says so; an unknown code shows the unknown panel', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/);
  await page.goto('/data-deletion-status');
  await expect(page.getByRole('alert')).toHaveText(TEXTS.noConfirmationCode);
  await page.goto('/data-deletion-status?code=0123456789abcdef0123456789abcdef');
  await expect(page.getByRole('heading', { name: DELETION_STATUS_TEXT.unknown.title })).toBeVisible();
});

test('when the status cannot be checked, the page says so', async ({ page, pageProblems }) => {
  pageProblems.allow(/status of 500/);
  await page.route('**/api/auth/data-deletion-status/**', (route) =>
    route.fulfill({ status: 500, json: { detail: 'x' } }),
  );
  await page.goto('/data-deletion-status?code=0123456789abcdef0123456789abcdef');
  await expect(page.getByRole('alert')).toHaveText(TEXTS.deletionStatusFailed);
});
