import { SIMULATED_APP } from '../../server/threads/settings.ts';
import { TEST_SITE } from '../site-under-test.ts';
import { expect, signInAs, test } from './fixtures.ts';

test('the debug page shows state, stored values, health, verify, script-visible cookies and the OAuth settings', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 401/); // verify while signed out
  await page.goto('/auth/debug');
  const section = (name: string) => page.getByRole('region', { name });
  await expect(section('Auth context')).toContainText('"status": "anonymous"');
  await expect(section('Backend health')).toContainText('"status": "ok"');
  await expect(section('Verify result')).toContainText('HTTP 401: You are not signed in.');
  await expect(section('Cookies visible to scripts')).toContainText('(none)');
  await expect(section('Cookies visible to scripts')).toContainText('HttpOnly');
  const settings = section('Public OAuth settings');
  await expect(settings).toContainText(SIMULATED_APP.id);
  await expect(settings).toContainText(`${TEST_SITE.publicUrl}/auth/callback`);
  await expect(settings).toContainText(`${TEST_SITE.publicUrl}/simulated-threads`);
  await expect(settings).toContainText('simulated');

  await signInAs(page, 'debug_user');
  await page.goto('/auth/debug');
  await expect(section('Verify result')).toContainText('"username": "debug_user"');
  await section('Verify result').getByRole('button', { name: 'Refresh' }).click();
  await expect(section('Verify result')).toContainText('"authenticated": true');
  await expect(section('Stored values')).toContainText('"username": "debug_user"');
  await expect(section('Cookies visible to scripts')).toContainText('(none)'); // signed in, still hidden
  await expect(page.locator('main')).not.toContainText(/SIM(LL|SL)/); // never a Threads token

  // Signed out elsewhere (another tab): Refresh on the auth context checks the session again.
  await expect(section('Auth context')).toContainText('"status": "authenticated"');
  await page.request.post('/api/auth/logout', { headers: { origin: TEST_SITE.publicUrl } });
  await section('Auth context').getByRole('button', { name: 'Refresh' }).click();
  await expect(section('Auth context')).toContainText('"status": "anonymous"');
});
