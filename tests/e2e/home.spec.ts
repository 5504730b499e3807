import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOGUE_PAGE_SIZE, type CataloguePage } from '../../contract/catalogue-pages.ts';
import { EAGER_IMAGE_COUNT } from '../../contract/constants.ts';
import { threadsProfileUrl } from '../../contract/profile-rules.ts';
import { TEXTS } from '../../contract/texts.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { TEST_SITE } from '../site-under-test.ts';
import type { Page } from '@playwright/test';
import { expect, test, waitForHydration } from './fixtures.ts';

const catalogue = (name: string) =>
  JSON.parse(readFileSync(path.join(TEST_SITE.catalogueDir, name), 'utf8')) as ThreadCard[];
const all = catalogue('threads-all.json');
const text = catalogue('threads-text.json');
const images = catalogue('threads-images.json');

test('the first cards are readable with JavaScript off', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  const cards = page.locator('article.thread-card');
  await expect(cards).toHaveCount(Math.min(CATALOGUE_PAGE_SIZE, all.length));
  const first = all[0];
  if (!first) throw new Error('the sample catalogue is empty');
  await expect(cards.first().getByRole('heading')).toHaveText(first.author);
  // The name leads to the author's profile on Threads, where the rest of their posts are (issue 20).
  await expect(cards.first().getByRole('heading').getByRole('link', { name: first.author })).toHaveAttribute(
    'href',
    threadsProfileUrl(first.handle.replace(/^@/, '')),
  );
  await expect(cards.first()).toContainText(first.content);
  // No dead controls: the filters submit to their pre-rendered pages (the next test); Show more,
  // which needs JavaScript, is not there; the search box says what it needs.
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Show more threads' })).toHaveCount(0);
  // (Chromium with JavaScript turned off by the test still parses <noscript> as text: read the HTML.)
  expect(await page.content()).toMatch(
    new RegExp(
      `role="search"[^]*<noscript><p class="catalogue-search__note">${TEXTS.searchNeedsJavaScript}</p></noscript></form>`,
    ),
  );
  // Images reserve their space and only the first row loads eagerly.
  const imageAttributes = await page
    .locator('img.thread-card__image')
    .evaluateAll((imgs) =>
      imgs.map((img) => [img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('loading')]),
    );
  expect(imageAttributes.length).toBeGreaterThan(3);
  expect(imageAttributes.every(([width, height]) => Number(width) > 0 && Number(height) > 0)).toBe(true);
  // The first row on wide screens (three cards) loads eagerly, later ones lazily.
  const cardLoading = await cards.evaluateAll((articles) =>
    articles.map((article) => article.querySelector('img.thread-card__avatar')?.getAttribute('loading')),
  );
  expect(cardLoading.slice(0, EAGER_IMAGE_COUNT)).toEqual(Array(EAGER_IMAGE_COUNT).fill('eager'));
  expect(cardLoading.slice(EAGER_IMAGE_COUNT).every((loading) => loading === 'lazy')).toBe(true);
  expect(imageAttributes.slice(-1)[0]?.[2]).toBe('lazy');
  await context.close();
});

test('without JavaScript the filters are a form: each opens its pre-rendered page, the choice shown', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  const cards = page.locator('article.thread-card');
  for (const [label, path_, expected] of [
    ['Text', '/filter/text/', text],
    ['Images', '/filter/images/', images],
    ['All', '/', all],
  ] as const) {
    await page.getByRole('button', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path_.replace(/\//g, '\\/')}\\??$`));
    await expect(page.getByRole('button', { name: label, exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(cards).toHaveCount(Math.min(CATALOGUE_PAGE_SIZE, expected.length));
    const first = expected[0];
    if (first) await expect(cards.first()).toContainText(first.content);
  }
  await context.close();
});

test('a filter page hydrates on its own list; another filter moves the address to the home page', async ({
  page,
}) => {
  await page.goto('/filter/images/');
  await waitForHydration(page);
  const imagesButton = page.getByRole('button', { name: 'Images', exact: true });
  await expect(imagesButton).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status')).toHaveText(
    `Showing ${Math.min(CATALOGUE_PAGE_SIZE, images.length)} of ${images.length} image threads`,
  );
  await page.getByRole('button', { name: 'Text', exact: true }).click();
  await expect(page).toHaveURL(/\/\?filter=text$/);
  await expect(page.getByRole('status')).toHaveText(textStatus);
  await page.goBack();
  await expect(page).toHaveURL(/\/filter\/images\/$/);
  await expect(imagesButton).toHaveAttribute('aria-pressed', 'true');
});

test('All, Text and Images filter the grid; the choice is visible and announced', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  const status = page.getByRole('status');
  const cards = page.locator('article.thread-card');
  const all_ = page.getByRole('button', { name: 'All', exact: true });
  const imagesButton = page.getByRole('button', { name: 'Images', exact: true });
  await expect(all_).toHaveAttribute('aria-pressed', 'true');

  // Keyboard: focus the Images filter and press Enter.
  await imagesButton.focus();
  await page.keyboard.press('Enter');
  await expect(imagesButton).toHaveAttribute('aria-pressed', 'true');
  await expect(all_).toHaveAttribute('aria-pressed', 'false');
  await expect(status).toHaveText(
    `Showing ${Math.min(CATALOGUE_PAGE_SIZE, images.length)} of ${images.length} image threads`,
  );
  await expect(cards).toHaveCount(Math.min(CATALOGUE_PAGE_SIZE, images.length));
  expect(await cards.locator('img.thread-card__image').count()).toBe(await cards.count());

  await page.getByRole('button', { name: 'Text', exact: true }).click();
  await expect(status).toHaveText(
    `Showing ${Math.min(CATALOGUE_PAGE_SIZE, text.length)} of ${text.length} text threads`,
  );
  await expect(cards.locator('img.thread-card__image')).toHaveCount(0);

  await all_.click();
  await expect(status).toHaveText(
    `Showing ${Math.min(CATALOGUE_PAGE_SIZE, all.length)} of ${all.length} threads`,
  );
  // By keyboard: the first new card takes the focus, even when the button leaves with the last page.
  await page.getByRole('button', { name: 'Show more threads' }).focus();
  await page.keyboard.press('Enter');
  await expect(cards).toHaveCount(Math.min(2 * CATALOGUE_PAGE_SIZE, all.length));
  await expect(cards.nth(CATALOGUE_PAGE_SIZE)).toBeFocused();
  await expect(page.locator('.freshness')).toContainText('Updated');
});

const TEXT_PAGE_1 = '**/data/pages/text/1.json';
const textStatus = `Showing ${Math.min(CATALOGUE_PAGE_SIZE, text.length)} of ${text.length} text threads`;

test('a failing page file is retried 3 times, then shows the error with a working Try Again', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 503/);
  let requests = 0;
  await page.route(TEXT_PAGE_1, (route) => {
    requests++;
    return route.fulfill({ status: 503, body: 'unavailable' });
  });
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text', exact: true }).click();

  const alert = page.getByRole('alert');
  // 1 + 2 + 4 s of backoff before the last attempt fails.
  await expect(alert).toContainText(TEXTS.threadsLoadFailed, { timeout: 20_000 });
  await expect(alert).toContainText('access token');
  expect(requests).toBe(4);

  await page.unroute(TEXT_PAGE_1);
  await alert.getByRole('button', { name: TEXTS.tryAgain }).click();
  await expect(page.getByRole('status')).toHaveText(textStatus);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('loading, then the empty text for a filter with no threads', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/data/pages/images/1.json', async (route) => {
    // The served page, emptied: same catalogue version as the manifest, no cards.
    const served = (await (await route.fetch()).json()) as CataloguePage;
    await held;
    await route.fulfill({ json: { ...served, pages: 1, total: 0, cards: [] } });
  });
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Images', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(TEXTS.loadingThreads);
  release();
  await expect(page.getByRole('status')).toHaveText(TEXTS.noThreadsForFilter);
  await expect(page.locator('article.thread-card')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show more threads' })).toHaveCount(0);
});

/** Lets requests for `url` through and counts them. */
async function countRequests(page: Page, url: string): Promise<() => number> {
  let requests = 0;
  await page.route(url, async (route) => {
    requests++;
    await route.continue();
  });
  return () => requests;
}

/** Opens home, chooses the Text filter and waits for its cards; a reload keeps Text (it is in the address). */
async function showTextThreads(page: Page, { reload = false } = {}): Promise<void> {
  if (reload) {
    await page.reload();
    await waitForHydration(page);
  } else {
    await page.goto('/');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Text', exact: true }).click();
  }
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('status')).toHaveText(textStatus);
}

/** The catalogue version the server's manifest names now. */
async function servedVersion(page: Page): Promise<string> {
  const manifest = (await (await page.request.get('/data/manifest.json')).json()) as { version?: string };
  if (!manifest.version) throw new Error('the served manifest has no version');
  return manifest.version;
}

/** The page the browser cached for a list, as the island saved it. */
async function cachedPage(page: Page, list: string, number: number) {
  return page.evaluate(
    (key) =>
      JSON.parse(localStorage.getItem(key) ?? 'null') as { savedAt: number; value: CataloguePage } | null,
    `curated-threads:page:${list}:${number}`,
  );
}

test('a loaded page is reused from the browser cache within the hour', async ({ page }) => {
  const requests = await countRequests(page, TEXT_PAGE_1);
  await showTextThreads(page);
  expect(requests()).toBe(1);
  const cached = await cachedPage(page, 'text', 1);
  expect(cached?.value.version).toBe(await servedVersion(page));
  expect(cached?.value.cards.map((card) => card.id)).toEqual(
    text.slice(0, CATALOGUE_PAGE_SIZE).map((card) => card.id),
  );
  await showTextThreads(page, { reload: true });
  expect(requests()).toBe(1);
});

test('a page cached from another catalogue version is fetched again', async ({ page }) => {
  const first = text[0];
  if (!first) throw new Error('the sample catalogue has no text thread');
  const staleCard = { ...first, id: 'stale-card', content: 'A card from a catalogue that is gone.' };
  const stale = {
    savedAt: Date.now(),
    value: { version: 'an-older-version', list: 'text', page: 1, pages: 1, total: 1, cards: [staleCard] },
  };
  await page.addInitScript((entry) => {
    localStorage.setItem('curated-threads:page:text:1', JSON.stringify(entry));
  }, stale);
  const requests = await countRequests(page, TEXT_PAGE_1);
  await showTextThreads(page);
  expect(requests()).toBe(1);
  await expect(page.getByText(staleCard.content)).toHaveCount(0);
  await expect(page.locator('article.thread-card').first()).toContainText(first.content);
  // The fresh page replaced the stale entry.
  expect((await cachedPage(page, 'text', 1))?.value.version).toBe(await servedVersion(page));
});

test('the freshness line says how long ago the catalogue was updated; the debug page says a refresh is due', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 401/); // the debug page verifies the (absent) session
  const hour = 3_600_000;
  const manifest = {
    generatedAt: new Date(Date.now() - 5 * hour - 60_000).toISOString(),
    nextUpdate: new Date(Date.now() - 4 * hour).toISOString(),
  };
  await page.route('**/data/manifest.json', (route) => route.fulfill({ json: manifest }));
  await page.goto('/');
  // Visitors read the age only; whether a refresh is overdue is the operator's business.
  await expect(page.locator('.freshness')).toHaveText('Updated 5 hours ago');
  await page.goto('/auth/debug');
  await expect(page.getByRole('region', { name: 'Public catalogue' })).toContainText(
    'a refresh is due (past nextUpdate)',
  );
});

test('keyboard users can skip straight to the content', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test('the grid runs no JavaScript until the visitor reaches for it; an address with a query hydrates it at once', async ({
  page,
}) => {
  const gridScripts: string[] = [];
  page.on('request', (request) => {
    if (/\/_astro\/ThreadBrowser\.[^/]+\.js$/.test(request.url())) gridScripts.push(request.url());
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(gridScripts).toEqual([]);
  await expect(page.locator('.thread-browser[data-hydrated]')).toHaveCount(0);
  await expect(page.locator('article.thread-card')).toHaveCount(Math.min(CATALOGUE_PAGE_SIZE, all.length));

  // Tabbing into the grid is reaching for it, as is pointing at it. Nothing is disabled before it
  // runs: the keyboard reaches the filters first, in their visual order, then the search box.
  const focusInGrid = () => page.evaluate(() => !!document.activeElement?.closest('.thread-browser'));
  for (let presses = 0; presses < 60 && !(await focusInGrid()); presses++) await page.keyboard.press('Tab');
  expect(await focusInGrid()).toBe(true);
  await expect(page.getByRole('button', { name: 'All', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('searchbox', { name: 'Search threads' })).toBeFocused();
  await expect(page.locator('.thread-browser[data-hydrated]')).toBeAttached();
  expect(gridScripts).toHaveLength(1);

  await page.goto('/?filter=text');
  await expect(page.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('status')).toHaveText(textStatus);
});

test('a signed-in browser hydrates the grid without waiting for a gesture (its cards carry gem toggles)', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 401/); // the stored user's session is not real: the header's check says so
  // What the callback page stores after a sign-in (src/lib/user-storage.ts).
  await page.addInitScript(() => localStorage.setItem('curated-threads:user-id', '1001'));
  const gridScripts: string[] = [];
  page.on('request', (request) => {
    if (/\/_astro\/ThreadBrowser\.[^/]+\.js$/.test(request.url())) gridScripts.push(request.url());
  });
  await page.goto('/');
  await expect(page.locator('.thread-browser[data-hydrated]')).toBeAttached();
  expect(gridScripts).toHaveLength(1);
});

test('a click on a filter before the grid has hydrated is not lost: the filter applies once it runs', async ({
  page,
}) => {
  await page.goto('/');
  const text = page.getByRole('button', { name: 'Text', exact: true });
  const box = await text.boundingBox();
  if (!box) throw new Error('the Text filter has no box');
  // A real pointer's click, not locator.click (which would wait for the button to be enabled).
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(text).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/\?filter=text$/);
});

test('words typed into the search box before the grid has hydrated are searched, not lost', async ({
  page,
}) => {
  await page.goto('/');
  const box = page.getByRole('searchbox', { name: 'Search threads' });
  // Typed at once: the first keystrokes land before the island runs.
  await box.pressSequentially('typography');
  await expect(page.locator('.thread-browser[data-hydrated]')).toBeAttached();
  await expect(box).toHaveValue('typography');
  await expect(page).toHaveURL(/\?q=typography$/);
  // Cleared, the box is the grid again: the island knows what the box held before it ran.
  await box.fill('');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status')).toHaveText(
    `Showing ${Math.min(CATALOGUE_PAGE_SIZE, all.length)} of ${all.length} threads`,
  );
});
