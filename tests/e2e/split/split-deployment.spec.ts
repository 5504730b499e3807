import { TEXTS } from '../../../contract/texts.ts';
import { SPLIT_SITE } from '../../site-under-test.ts';
import { expect, signInThroughPages, test, waitForHydration } from '../fixtures.ts';

// The split deployment (decision 018): these pages are served by one server (PUBLIC_URL) and built
// with API_BASE_URL pointing at a second server, on another port of the same host: another origin of
// the same site, as https://api.example.com is for https://www.example.com. Every page here is
// watched for console errors and CSP violations (fixtures.ts), so a blocked call fails the walk.
const PAGES = SPLIT_SITE.publicUrl;
const API = SPLIT_SITE.apiBaseUrl ?? '';

test('pages on one origin, the API on another of the same site: home, sign-in, a signed-in page, logout', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/); // /request-invite asks for the profile a newcomer does not have yet
  expect(API).not.toBe('');
  expect(new URL(API).origin).not.toBe(new URL(PAGES).origin);
  // Every API call the pages make, with the headers the browser really sent.
  // The headers are read asynchronously: every reading is kept and awaited before the log is checked.
  const recorded: Promise<{ url: string; method: string; headers: Record<string, string> }>[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) {
      recorded.push(
        request.allHeaders().then((headers) => ({ url: request.url(), method: request.method(), headers })),
      );
    }
  });

  const home = await page.goto('/');
  const csp = home?.headers()['content-security-policy'] ?? '';
  expect(csp.split('; ')).toContain(`connect-src 'self' ${API}`);
  await waitForHydration(page);

  // Sign-in: the button wakes the API and reads its settings there; the provider sends the browser
  // back to the pages' /auth/callback, whose island posts the code to the API origin.
  await page.getByRole('button', { name: TEXTS.login }).click();
  await expect(page).toHaveURL((url) => url.origin === API && url.pathname.endsWith('/oauth/authorize'));
  const consent = new URL(page.url());
  expect(consent.searchParams.get('redirect_uri')).toBe(`${PAGES}/auth/callback`);
  await page.goto('/'); // signInThroughPages walks the same flow from home
  await signInThroughPages(page, 'split_walker');

  // The session cookie was set by the API origin's answer: HttpOnly, SameSite=Lax, never readable here.
  const cookies = await page.context().cookies(API);
  expect(cookies.find((cookie) => cookie.name === 'ct_session')).toMatchObject({
    httpOnly: true,
    sameSite: 'Lax',
  });
  expect(await page.evaluate(() => document.cookie)).not.toContain('ct_session');

  // A signed-in page loads its data from the API, and a state-changing call passes the CSRF check.
  await page.goto('/request-invite');
  await page.getByRole('button', { name: TEXTS.requestInvite }).click();
  await expect(page.getByRole('heading', { name: TEXTS.invitePending })).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByRole('status').filter({ hasText: 'Pending Approval' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('@split_walker');

  await page.getByRole('button', { name: TEXTS.logout }).click();
  await expect(page).toHaveURL(`${PAGES}/`);
  await expect(page.getByRole('button', { name: TEXTS.login })).toBeVisible();

  // Every call went to the API origin, none to the pages' own; the signed-in ones carried the cookie.
  const calls = await Promise.all(recorded);
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.filter((call) => !call.url.startsWith(`${API}/api/`))).toEqual([]);
  const byPath = (path: string, method = 'GET') =>
    calls.filter((call) => new URL(call.url).pathname === path && call.method === method);
  expect(byPath('/api/auth/callback', 'POST')).toHaveLength(1);
  for (const [path, method] of [
    ['/api/user/profile', 'GET'],
    ['/api/user/request-invite', 'POST'],
    ['/api/auth/logout', 'POST'],
  ] as const) {
    const call = byPath(path, method)[0];
    expect(call, `${method} ${path}`).toBeDefined();
    expect(call?.headers.cookie, `${method} ${path}`).toMatch(/ct_session=/);
    expect(call?.headers.origin, `${method} ${path}`).toBe(PAGES);
  }
  expect(byPath('/api/user/request-invite', 'POST')[0]?.headers['sec-fetch-site']).toBe('same-site');
});
