import type { Page } from '@playwright/test';
import { authorizationFailedWith, TEXTS } from '../../contract/texts.ts';
import { expect, test } from './fixtures.ts';

const STATE_KEY = 'curated-threads:oauth-state';

/** Counts the page's calls to the code exchange: forged callbacks must make none. */
function countExchanges(page: Page): () => number {
  let exchanges = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/auth/callback')) exchanges++;
  });
  return () => exchanges;
}

/** Walks login and the consent page, stopping on the callback page (unlike the fixture's signInAs). */
async function authorizeAs(page: Page, username: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: TEXTS.login }).click();
  await expect(page).toHaveURL(/\/simulated-threads\/oauth\/authorize\?/);
  // A member is asked for threads_basic only (decision 024), and the consent page offers no boxes.
  expect(new URL(page.url()).searchParams.get('scope')).toBe('threads_basic');
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await page.getByLabel('Threads username').fill(username);
  await page.getByRole('button', { name: 'Authorize' }).click();
}

test('sign in as alice through the simulated provider, stay signed in, then log out', async ({ page }) => {
  const exchanges = countExchanges(page);
  await authorizeAs(page, 'alice');
  await expect(page.getByRole('status')).toHaveText(TEXTS.authorizationSuccess);
  expect(page.url()).not.toContain('code='); // dropped from the address bar at once
  await expect(page).toHaveURL(/\/$/, { timeout: 5000 }); // redirected home after 2 s
  const header = page.getByRole('banner');
  await expect(header).toContainText('@alice');
  await expect(header.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  expect(exchanges()).toBe(1);

  // The session cookie is HttpOnly: scripts never see it. The browser keeps only id and username.
  expect(await page.evaluate(() => document.cookie)).not.toContain('ct_session');
  expect(await page.evaluate(() => localStorage.getItem('curated-threads:username'))).toBe('alice');
  expect(await page.evaluate((key) => sessionStorage.getItem(key), STATE_KEY)).toBeNull();

  await page.goto('/privacy');
  await expect(page.getByRole('banner')).toContainText('@alice');

  await page.getByRole('button', { name: TEXTS.logout }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: TEXTS.login })).toBeVisible();
  expect((await page.request.get('/api/auth/verify')).status()).toBe(401);
  expect(await page.evaluate(() => localStorage.getItem('curated-threads:user-id'))).toBeNull();
});

test('the header runs no script until a visitor reaches for Login; without JavaScript it offers no dead button', async ({
  page,
  newPage,
}) => {
  // Loading a page hydrates nothing of the header for a visitor (decision 053): React is not even fetched.
  const react: string[] = [];
  page.on('request', (request) => {
    if (/\/_astro\/(client|HeaderAuth)\.[^/]+\.js$/.test(request.url())) react.push(request.url());
  });
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  expect(react).toEqual([]);
  const login = page.getByRole('banner').getByRole('button', { name: TEXTS.login });
  await expect(login).toBeVisible();
  // The keyboard reaches it before hydration, and Enter on it signs in once the island runs.
  for (
    let presses = 0;
    presses < 10 && !(await login.evaluate((el) => el === document.activeElement));
    presses++
  )
    await page.keyboard.press('Tab');
  await expect(login).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/simulated-threads\/oauth\/authorize\?/);
  expect(react.length).toBeGreaterThan(0);

  const reader = await newPage({ javaScriptEnabled: false });
  await reader.goto('/about');
  await expect(reader.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(reader.getByRole('button', { name: TEXTS.login })).toHaveCount(0);
});

test('Cancel on the consent page comes back as the access_denied error, with Return Home', async ({
  page,
}) => {
  const exchanges = countExchanges(page);
  await page.goto('/');
  await page.getByRole('button', { name: TEXTS.login }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(TEXTS.authorizationFailed);
  await expect(alert).toContainText(authorizationFailedWith('access_denied'));
  expect(exchanges()).toBe(0);
  await alert.getByRole('button', { name: TEXTS.returnHome }).click();
  await expect(page).toHaveURL(/\/$/);
});

const forged: [string, string, string | null, string][] = [
  [
    'a state that was never issued',
    '/auth/callback?code=abc&state=0123456789abcdef0123456789abcdef',
    null,
    TEXTS.invalidState,
  ],
  ['a state from another login', '/auth/callback?code=abc&state=aaaa', 'bbbb', TEXTS.invalidState],
  ['no state at all', '/auth/callback?code=abc', 'bbbb', TEXTS.invalidState],
  ['no code', '/auth/callback?state=bbbb', 'bbbb', TEXTS.noAuthorizationCode],
  [
    'an error from the provider, at /callback',
    '/callback?error=server_error&state=bbbb',
    'bbbb',
    authorizationFailedWith('server_error'),
  ],
];
for (const [name, url, storedState, message] of forged) {
  test(`callback with ${name}: '${message}' and no call to the server`, async ({ page }) => {
    if (storedState) {
      const entry = { key: STATE_KEY, value: storedState };
      await page.addInitScript(({ key, value }) => sessionStorage.setItem(key, value), entry);
    }
    const exchanges = countExchanges(page);
    await page.goto(url);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(TEXTS.authorizationFailed);
    await expect(alert).toContainText(message);
    await expect(alert.getByRole('button', { name: TEXTS.returnHome })).toBeVisible();
    expect(exchanges()).toBe(0);
    expect(page.url()).not.toContain('?');
  });
}

test('a replayed callback URL is refused: its state was used up by the first visit', async ({ page }) => {
  let callbackUrl = '';
  page.on('framenavigated', (frame) => {
    if (frame.url().includes('/auth/callback?')) callbackUrl = frame.url();
  });
  await authorizeAs(page, 'bob');
  await expect(page.getByRole('status')).toHaveText(TEXTS.authorizationSuccess);
  const exchanges = countExchanges(page);
  await page.goto(callbackUrl);
  await expect(page.getByRole('alert')).toContainText(TEXTS.invalidState);
  expect(exchanges()).toBe(0);
});

for (const [name, status, body, message] of [
  ['a 403 (not on the allow list)', 403, { detail: 'anything' }, TEXTS.accessDenied],
  ['an answer without the success flag', 200, { user_id: '1' }, TEXTS.missingSuccessFlag],
  ['a server error with a detail', 502, { detail: 'Threads did not respond.' }, 'Threads did not respond.'],
] as const) {
  test(`callback answered with ${name}: '${message}'`, async ({ page, pageProblems }) => {
    pageProblems.allow(/status of (403|502)/);
    await page.addInitScript((key) => sessionStorage.setItem(key, 'cccc'), STATE_KEY);
    await page.route('**/api/auth/callback', (route) => route.fulfill({ status, json: body }));
    await page.goto('/auth/callback?code=abc&state=cccc');
    await expect(page.getByRole('alert')).toContainText(message);
    expect(await page.evaluate(() => localStorage.getItem('curated-threads:user-id'))).toBeNull();
  });
}
