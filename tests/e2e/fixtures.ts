import {
  test as base,
  expect,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';
import { AuthConfigSchema, CallbackResponseSchema } from '../../contract/auth.ts';
import { USER_ID_KEY, USERNAME_KEY } from '../../src/lib/user-storage.ts';

declare global {
  interface Window {
    __cspViolations: string[];
  }
}

export interface PageProblems {
  /** Declares console errors this test causes on purpose (a 503 it routed, a 404 it visits). */
  allow(pattern: RegExp): void;
  /** Whether a problem was declared with `allow`. */
  allowed(problem: string): boolean;
}

/** Opens a page in a browser context of its own (its own cookies and storage), watched like `page`. */
export type NewPage = (options?: BrowserContextOptions) => Promise<Page>;

/**
 * Records a page's console errors, uncaught exceptions and CSP violations; the returned function
 * reads them (the CSP ones from the page itself, so call it before the page closes).
 */
async function watch(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return async () => {
    const violations = await page.evaluate(() => window.__cspViolations ?? []).catch(() => []);
    return [...problems, ...violations.map((v) => `CSP: ${v}`)];
  };
}

/**
 * Every page in every test is watched, the second browsers a test opens with `newPage` included: a
 * console error, an uncaught exception or a CSP violation fails the test, so a broken island or a
 * missing hash cannot pass unnoticed.
 */
export const test = base.extend<{ pageProblems: PageProblems; newPage: NewPage }>({
  pageProblems: [
    async ({ page }, use) => {
      const patterns: RegExp[] = [];
      const allowed = (problem: string) => patterns.some((pattern) => pattern.test(problem));
      const problems = await watch(page);
      await use({ allow: (pattern) => patterns.push(pattern), allowed });
      expect((await problems()).filter((problem) => !allowed(problem))).toEqual([]);
    },
    { auto: true },
  ],
  newPage: async ({ browser, pageProblems }, use) => {
    const opened: { context: BrowserContext; problems: () => Promise<string[]> }[] = [];
    await use(async (options) => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      opened.push({ context, problems: await watch(page) });
      return page;
    });
    const found = (await Promise.all(opened.map(({ problems }) => problems()))).flat();
    await Promise.all(opened.map(({ context }) => context.close()));
    expect(found.filter((problem) => !pageProblems.allowed(problem))).toEqual([]);
  },
});

export { expect };

/**
 * Waits until the home island has hydrated (it marks its section). It hydrates when a visitor first
 * reaches for it (client:interaction), so the pointer moves onto its heading first.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).hover();
  await expect(page.locator('.thread-browser[data-hydrated]')).toBeAttached();
}

/** The Playwright projects whose servers search and publish with the admin's curation account. */
const CURATING_PROJECTS = ['curation', 'media', 'display'];

/**
 * Signs in as `username` through the simulated provider, clicking as a member does: the button, the
 * provider's consent page, the callback page. Waits until the header shows the user, on home. The
 * specs of the flow itself and of deployments that change it (split origins, nginx) use this one.
 */
export async function signInThroughPages(page: Page, username: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Login with Threads' }).click();
  await page.getByLabel('Threads username').fill(username);
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page.getByRole('banner')).toContainText(`@${username.toLowerCase()}`, { timeout: 10_000 });
  // The callback page sends the browser home 2 s after success; going home now unloads it and its
  // timer, so that redirect cannot overtake the test's next page.goto (sign-in.spec.ts waits for it).
  await page.goto('/');
  await connectCuratorIfCurating(page, username);
}

/**
 * Signs `page`'s browser in as `username` with the requests the sign-in pages make (the provider's
 * consent form, then our callback API), without rendering those pages: most tests only need a
 * member signed in, and the clicks cost seconds each time (signInThroughPages and sign-in.spec.ts
 * click through them). Then opens home and waits until the header shows the user. The login button
 * asks for threads_basic only (decision 024); in the projects that curate, `admin` then also has the
 * curation account connected with every curation scope (once per server, as an admin does after the
 * first sign-in), so those tests search and publish.
 */
export async function signInAs(page: Page, username: string): Promise<void> {
  const origin = new URL(test.info().project.use.baseURL ?? '').origin;
  const config = AuthConfigSchema.parse(await (await page.request.get('/api/auth/config')).json());
  const consent = await page.request.post(`${config.auth_base_url}/oauth/authorize`, {
    form: {
      client_id: config.client_id,
      redirect_uri: config.redirect_uri,
      scope: config.scopes.join(','),
      response_type: 'code',
      state: 'signed-in-by-the-test',
      username,
    },
    maxRedirects: 0,
  });
  const code = new URL(consent.headers().location ?? '', origin).searchParams.get('code');
  expect(code, `the provider's answer to ${username}'s consent carries a code`).toBeTruthy();
  const callback = await page.request.post('/api/auth/callback', {
    data: { code, redirect_uri: config.redirect_uri },
    headers: { origin },
  });
  expect(callback.status(), await callback.text()).toBe(200);
  const user = CallbackResponseSchema.parse(await callback.json());
  // What the callback page keeps in local storage, and the pages read to know a member may be signed
  // in: set on a small page of the site (its origin's storage), before home is opened.
  await page.goto('/robots.txt');
  await page.evaluate(
    ({ keys, user }) => {
      localStorage.setItem(keys.id, user.user_id);
      localStorage.setItem(keys.username, user.username);
    },
    { keys: { id: USER_ID_KEY, username: USERNAME_KEY }, user },
  );
  await page.goto('/');
  await expect(page.getByRole('banner')).toContainText(`@${username.toLowerCase()}`, { timeout: 10_000 });
  await connectCuratorIfCurating(page, username);
}

/** In the curating projects, connects the admin's curation account unless this server has it already. */
async function connectCuratorIfCurating(page: Page, username: string): Promise<void> {
  // Only the curating projects' tests search and publish; elsewhere the admin keeps what they granted
  // (the site project's connect test changes it, and must not race another test reconnecting).
  if (username !== 'admin' || !CURATING_PROJECTS.includes(test.info().project.name)) return;
  const account = await page.request.get('/api/admin/curator');
  if (((await account.json()) as { missing: string[] }).missing.length === 0) return;
  await connectCurationAccount(page, username);
  await page.goto('/');
}

/**
 * Connects the curation account from the dashboard's panel as `username`, leaving the boxes of
 * `untick` unticked on the consent page; waits until the browser is back on /dashboard.
 */
export async function connectCurationAccount(
  page: Page,
  username: string,
  untick: readonly string[] = [],
): Promise<void> {
  await page.goto('/dashboard');
  const panel = page.getByRole('region', { name: 'Curation account' });
  await panel.getByRole('button', { name: 'Connect curation account' }).click();
  await expect(page).toHaveURL(/\/simulated-threads\/oauth\/authorize\?/);
  for (const scope of untick) await page.getByRole('checkbox', { name: scope }).uncheck();
  await page.getByLabel('Threads username').fill(username);
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard', { timeout: 10_000 });
}

/** A page of its own, signed in as `username`. */
export async function signedInPage(newPage: NewPage, username: string): Promise<Page> {
  const page = await newPage();
  await signInAs(page, username);
  return page;
}

/** Collects window.alert / window.confirm texts; confirms are answered with `accept`. */
export function dialogs(page: Page, accept = true): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(dialog.message());
    void (dialog.type() === 'confirm' && !accept ? dialog.dismiss() : dialog.accept());
  });
  return seen;
}
