import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type AxeCore from 'axe-core';
import type { FastifyInstance } from 'fastify';
import { EMBED_QUOTE_CLASS } from '../../../contract/embed-names.ts';
import { expect, test, waitForHydration } from '../fixtures.ts';
import {
  buildEmbedSite,
  EMBED_DIGEST_ID,
  EMBED_SITE,
  EMBED_STAND_IN_PATH,
  serveEmbedSite,
} from './embed-site.ts';

// Decision 070: a site whose cards are mostly others' posts shown through Threads' embed, built and
// served here (embed-site.ts) with a stand-in for Meta's script that frames every embed it finds.

test.use({ baseURL: EMBED_SITE.publicUrl });

declare global {
  interface Window {
    __embedRuns?: number;
    __idle?: (() => void)[];
  }
}

let app: FastifyInstance | undefined;
let embedCount = 0;

test.beforeAll(async () => {
  // A whole site build: slow when the machine is busy.
  test.setTimeout(300_000);
  const cards = await buildEmbedSite();
  embedCount = cards.filter((card) => card.display === 'embed').length;
  app = await serveEmbedSite();
});

test.afterAll(async () => {
  await app?.close();
});

/** Keeps the page from ever being idle until `releaseIdle`: what runs only at idle waits for the test. */
async function holdIdle(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__idle = [];
    window.requestIdleCallback = (run: IdleRequestCallback) => {
      window.__idle?.push(() => run({ didTimeout: false, timeRemaining: () => 50 }));
      return 0;
    };
  });
}

async function releaseIdle(page: Page): Promise<void> {
  await page.evaluate(() => {
    const waiting = window.__idle ?? [];
    window.__idle = [];
    for (const run of waiting) run();
  });
}

/** Counts the requests for the embed script a page makes. */
function scriptRequests(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === EMBED_STAND_IN_PATH) seen.count++;
  });
  return seen;
}

const embedCards = (page: Page) => page.locator('article[data-embed-card]');
const frames = (page: Page) => page.locator('iframe.stand-in-frame');

test("the pages carry Meta's blockquote with the permalink and the layout names the script", async ({
  request,
}) => {
  const html = await (await request.get('/')).text();
  expect(html).toContain(`<meta name="threads-embed-script" content="${EMBED_SITE.embedScriptUrl}">`);
  expect(html).toContain(
    `<blockquote class="${EMBED_QUOTE_CLASS}" data-text-post-permalink="https://www.threads.com/@`,
  );
  expect(html).toContain('data-text-post-permalink="https://www.threads.com/t/EMBEDT1"');
  // Meta's script is never in the HTML: only threads-embed.ts appends it.
  expect(html).not.toContain(`src="${EMBED_SITE.embedScriptUrl}"`);
});

test('nothing is loaded from Meta before the page is idle; then the posts near the screen are framed', async ({
  page,
}) => {
  await holdIdle(page);
  const requests = scriptRequests(page);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  const first = embedCards(page).first();
  await expect(first.getByRole('link', { name: /^View on Threads/ })).toBeVisible();
  await expect(first.getByRole('button', { name: /^Show post/ })).toBeVisible();
  await expect(first.getByRole('link', { name: /^Thread page/ })).toHaveAttribute('href', /^\/thread\//);
  expect(requests.count).toBe(0);
  await expect(frames(page)).toHaveCount(0);

  await releaseIdle(page);
  await expect(first.locator('iframe.stand-in-frame')).toBeVisible();
  expect(requests.count).toBe(1);
  // Ours stays beside the frame: the thread's page on this site.
  await expect(first.getByRole('link', { name: /^Thread page/ })).toBeVisible();
});

test("'Show post' frames the post at once, and the card keeps the focus its button had", async ({ page }) => {
  await holdIdle(page);
  const requests = scriptRequests(page);
  await page.goto('/');
  const card = embedCards(page).nth(9);
  const button = card.getByRole('button', { name: /^Show post/ });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(card.locator('iframe.stand-in-frame')).toBeAttached();
  await expect(card).toBeFocused();
  // The island replays the press once it has hydrated: the script still ran once.
  await waitForHydration(page);
  expect(requests.count).toBe(1);
  expect(await page.evaluate(() => window.__embedRuns)).toBe(1);
});

test("cards 'Show more' adds are framed by a fresh run of the script", async ({ page }) => {
  const requests = scriptRequests(page);
  await page.goto('/');
  const shown = await embedCards(page).count();
  await expect(frames(page)).toHaveCount(shown);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Show more threads' }).click();
  await expect(embedCards(page)).toHaveCount(embedCount);
  await expect(frames(page)).toHaveCount(embedCount);
  expect(requests.count).toBe(2);
  await expect(page.locator(`blockquote.${EMBED_QUOTE_CLASS}`)).toHaveCount(0);
});

test('a digest frames its embedded posts and keeps its own card as it was', async ({ page }) => {
  await holdIdle(page);
  await page.goto(`/digest/${EMBED_DIGEST_ID}`);
  const items = page.locator('.digest-item');
  await expect(items).toHaveCount(3);
  await expect(items.nth(1).getByText('A post on Threads')).toBeVisible();
  await expect(items.nth(2).locator('.digest-item__text')).not.toBeEmpty();
  await releaseIdle(page);
  await expect(items.nth(0).locator('iframe.stand-in-frame')).toBeVisible();
  await expect(items.nth(1).locator('iframe.stand-in-frame')).toBeVisible();
});

test('without JavaScript the placeholder stays, with the link to the post and no button', async ({
  newPage,
}) => {
  const page = await newPage({ javaScriptEnabled: false, baseURL: EMBED_SITE.publicUrl });
  const requests = scriptRequests(page);
  await page.goto('/');
  const first = embedCards(page).first();
  await expect(first.getByRole('link', { name: /^View on Threads/ })).toBeVisible();
  await expect(first.getByRole('button', { name: /^Show post/ })).toBeHidden();
  expect(requests.count).toBe(0);
});

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core');

test('the placeholders pass axe in the light and the dark theme, in the grid and in a digest', async ({
  newPage,
}) => {
  // axe is injected as an inline script, which the pages' CSP refuses (accessibility.spec.ts does the same).
  const page = await newPage({ bypassCSP: true, reducedMotion: 'reduce', baseURL: EMBED_SITE.publicUrl });
  await holdIdle(page);
  const found: Record<string, string[]> = {};
  for (const path of ['/', `/digest/${EMBED_DIGEST_ID}`]) {
    await page.goto(path);
    await page.addScriptTag({ path: AXE_SOURCE });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: typeof AxeCore }).axe;
        const result = await axe.run(document, {
          runOnly: {
            type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
          },
        });
        return result.violations.map(
          (violation) => `${violation.id}: ${violation.nodes[0]?.target.join(' ')}`,
        );
      });
      if (violations.length > 0) found[`${path} (${colorScheme})`] = violations;
    }
    // Still placeholders: the page never went idle.
    await expect(page.locator(`blockquote.${EMBED_QUOTE_CLASS}`).first()).toBeVisible();
  }
  expect(found).toEqual({});
});
