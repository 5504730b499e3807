import { test as base, expect, type Page } from '@playwright/test';

declare global {
  interface Window {
    __cspViolations: string[];
  }
}

export interface PageProblems {
  /** Declares console errors this test causes on purpose (a 503 it routed, a 404 it visits). */
  allow(pattern: RegExp): void;
}

/**
 * Every page in every test is watched: a console error, an uncaught exception or a CSP violation
 * fails the test, so a broken island or a missing hash cannot pass unnoticed.
 */
export const test = base.extend<{ pageProblems: PageProblems }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      const allowed: RegExp[] = [];
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
      await use({ allow: (pattern) => allowed.push(pattern) });
      const violations = await page.evaluate(() => window.__cspViolations ?? []).catch(() => []);
      const unexpected = problems.filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
      expect([...unexpected, ...violations.map((v) => `CSP: ${v}`)]).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until the home island has hydrated (its buttons become enabled). */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Images', exact: true })).toBeEnabled();
}

/** Signs in through the simulated provider as `username` and waits until the header shows the user. */
export async function signInAs(page: Page, username: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Login with Threads' }).click();
  await page.getByLabel('Threads username').fill(username);
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page.getByRole('banner')).toContainText(`@${username.toLowerCase()}`, { timeout: 10_000 });
}
