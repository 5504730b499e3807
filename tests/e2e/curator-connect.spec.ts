import { TEXTS } from '../../contract/texts.ts';
import { connectCurationAccount, expect, signInAs, test } from './fixtures.ts';

// Scopes per role (decision 024; threads-api.md section 10, scopes per use).

test("a member's sign-in sends the browser to the authorize page with scope=threads_basic only", async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: TEXTS.login }).click();
  await expect(page).toHaveURL(/\/simulated-threads\/oauth\/authorize\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('scope')).toBe('threads_basic');
  expect(url.searchParams.get('response_type')).toBe('code');
  // Nothing beyond threads_basic is asked for, so the consent page has no permission to untick.
  await expect(page.getByRole('checkbox')).toHaveCount(0);
});

test('the admin connects the curation account, unticks one permission, and the dashboard shows it missing', async ({
  page,
}) => {
  await signInAs(page, 'admin');
  await page.goto('/dashboard');
  const panel = page.getByRole('region', { name: 'Curation account' });
  await expect(panel.getByText(TEXTS.loading)).toHaveCount(0);

  // The connect asks for the four curation scopes; the person leaves insights out.
  const authorize = page.waitForURL(/\/simulated-threads\/oauth\/authorize\?/);
  const connecting = connectCurationAccount(page, 'admin', ['threads_manage_insights']);
  await authorize;
  expect(new URL(page.url()).searchParams.get('scope')).toBe(
    'threads_basic,threads_keyword_search,threads_manage_insights,threads_content_publish',
  );
  await connecting;

  // Back on the dashboard after the callback: the panel names the account and the missing permission.
  const reloaded = page.getByRole('region', { name: 'Curation account' });
  await expect(reloaded).toContainText('@admin: some permissions are missing.');
  const missing = reloaded.getByRole('listitem').filter({ hasText: 'threads_manage_insights' });
  await expect(missing).toContainText('Missing');
  await expect(missing).toContainText("Read likes and replies of the account's own posts.");
  for (const scope of ['threads_basic', 'threads_keyword_search', 'threads_content_publish']) {
    await expect(reloaded.getByRole('listitem').filter({ hasText: scope })).toContainText('Granted');
  }

  // Keyboard: the connect button is reachable and starts the same flow again.
  const button = reloaded.getByRole('button', { name: 'Connect curation account' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/simulated-threads\/oauth\/authorize\?/);
});
