import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type AxeCore from 'axe-core';
import { expect, signInAs, test, waitForHydration } from './fixtures.ts';

// The accessibility sweep (issue 20): axe-core over every page and state a visitor, a member and an
// admin reach, in the light and the dark theme. Any violation of WCAG 2.2 A/AA or axe's best
// practices fails, with each rule, what it found and where.

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core');

/** Pages anyone can open, signed out. */
const PUBLIC_PAGES = [
  '/',
  '/filter/text/',
  '/filter/images/',
  '/?query=typography',
  '/topics/',
  '/topics/typography/',
  '/topics/typography/feed/',
  '/feed/',
  '/about',
  '/digest/',
  '/privacy',
  '/terms',
  '/data-deletion',
  '/moderation',
  '/your-posts',
  '/request-invite',
  '/submit',
  '/profile',
  '/dashboard',
  '/no-such-page-here',
];

/** Pages a signed-in member (waiting for an invite) and the admin open. */
const SIGNED_IN_PAGES = ['/', '/request-invite', '/submit', '/profile', '/your-posts'];

interface Found {
  rule: string;
  impact: string | null;
  help: string;
  where: string[];
}

/** Every rule of these tags runs in the light theme. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/**
 * The rules whose outcome depends on colours, the only ones run again in the dark theme: the
 * themes differ in colours alone (CSS custom properties under a media query), so every other rule
 * would find in the dark what it found in the light, at the cost of a second full scan.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Runs axe on the page as it is now (every rule, or only `rules`); returns its violations, described for a failure message. */
async function scan(page: Page, rules?: string[]): Promise<Found[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(
    async ({ tags, only }) => {
      const axe = (window as unknown as { axe: typeof AxeCore }).axe;
      const result = await axe.run(document, {
        runOnly: only ? { type: 'rule', values: only } : { type: 'tag', values: tags },
      });
      return result.violations.map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        where: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      }));
    },
    { tags: TAGS, only: rules ?? null },
  );
}

const SCHEMES = ['light', 'dark'] as const;

/**
 * Scans the page as it is now in the light theme with every rule, then in the dark one with the
 * colour rules: the themes are CSS media queries alone, so switching the emulated scheme restyles
 * the same page without loading it again. The findings are named by `where` and the theme.
 */
async function scanBothThemes(page: Page, where: string): Promise<Record<string, Found[]>> {
  const found: Record<string, Found[]> = {};
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    const list = await scan(page, colorScheme === 'dark' ? COLOUR_RULES : undefined);
    if (list.length > 0) found[`${where} (${colorScheme})`] = list;
  }
  return found;
}

/** Opens `path`, waits for its islands to settle, and scans it in both themes, named by `where`. */
async function scanPage(page: Page, path: string, where = path): Promise<Record<string, Found[]>> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  return scanBothThemes(page, where);
}

test('signed out, every public page passes axe in the light and the dark theme', async ({
  newPage,
  pageProblems,
}) => {
  test.setTimeout(180_000);
  pageProblems.allow(/status of 404/); // the sweep opens the 404 page on purpose
  const page = await newPage({ bypassCSP: true, reducedMotion: 'reduce' });
  const found: Record<string, Found[]> = {};
  for (const path of PUBLIC_PAGES) Object.assign(found, await scanPage(page, path));
  // The grid hydrated, then its next page shown: the states a reader reaches on home.
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Show more threads' }).click();
  await expect(page.locator('.thread-grid')).toHaveCount(2);
  Object.assign(found, await scanBothThemes(page, '/ (hydrated, second page)'));
  expect(found).toEqual({});
});

test("signed in, a member's and the admin's pages pass axe in the light and the dark theme", async ({
  newPage,
  pageProblems,
}) => {
  test.setTimeout(240_000);
  pageProblems.allow(/status of 404/); // /request-invite asks for the profile a newcomer does not have yet
  const found: Record<string, Found[]> = {};
  for (const username of ['axemember', 'admin']) {
    const page = await newPage({ bypassCSP: true, reducedMotion: 'reduce' });
    await signInAs(page, username);
    for (const path of SIGNED_IN_PAGES)
      Object.assign(found, await scanPage(page, path, `${username} ${path}`));
    if (username !== 'admin') continue;
    // Every tab of the dashboard, as the admin opens it.
    await page.goto('/dashboard');
    const tabs = page.getByRole('tab');
    await expect(tabs.first()).toBeVisible();
    for (let index = 0; index < (await tabs.count()); index++) {
      const tab = tabs.nth(index);
      const name = (await tab.textContent()) ?? String(index);
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await page.waitForLoadState('networkidle');
      Object.assign(found, await scanBothThemes(page, `admin /dashboard, tab ${name}`));
    }
  }
  expect(found).toEqual({});
});
