import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { MODERATION_TEXTS } from '../../contract/moderation-log.ts';
import { SITE } from '../../contract/site.ts';
import { TEXTS } from '../../contract/texts.ts';
import { refreshInterval } from '../../src/lib/about.ts';
import { TEST_SITE } from '../site-under-test.ts';
import { expect, test } from './fixtures.ts';

/**
 * DESIGN section 8: the legal pages load the header island and nothing else; the 404 page also the
 * public-profile lookup (DESIGN section 5).
 */
async function expectOnlyHeaderIsland(page: Page, scripts: string[], { profileLookup = false } = {}) {
  // A visitor's header island waits for a first use (decision 053): its Login button is in the
  // HTML, and pointing at it brings the island's script.
  const login = page.getByRole('button', { name: TEXTS.login });
  await expect(login).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((url) => /HeaderAuth/.test(url))).toEqual([]);
  await login.hover();
  await expect.poll(() => scripts.some((url) => /HeaderAuth/.test(url))).toBe(true);
  const others = scripts.filter((url) => /\/_astro\/[A-Z]/.test(url) && !/HeaderAuth/.test(url));
  // A profile shows its gems and threads as cards, so the lookup brings the card grid with it.
  const allowed = profileLookup
    ? ['PublicProfileView', 'ProfileTabs', 'TabList', 'ThreadGrid', 'ThreadCardView']
    : [];
  const names = others.map((url) => url.replace(/.*\/_astro\/([A-Za-z]+).*/, '$1'));
  expect(names.filter((name) => !allowed.includes(name))).toEqual([]);
}

const LEGAL_PAGES = [
  { path: '/privacy', heading: TEXTS.privacyPolicy },
  { path: '/terms', heading: TEXTS.termsOfUse },
  { path: '/data-deletion', heading: 'Data deletion' },
];

for (const { path, heading } of LEGAL_PAGES) {
  test(`${path}: its own title, description and OpenGraph tags, dated, with the contact address, only the header island`, async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page).toHaveTitle(`${heading} · ${SITE.title}`);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
      'content',
      `${heading} · ${SITE.title}`,
    );
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length).toBeGreaterThan(40);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute(
      'content',
      description ?? '',
    );
    await expect(page.getByText('Last updated:')).toContainText('December 7, 2026');
    await expect(page.locator(`a[href^="mailto:${TEST_SITE.contactEmail}"]`).first()).toBeVisible();
    await expectOnlyHeaderIsland(page, scripts);
  });
}

test('the data-deletion page says what is stored, how to ask and within how long', async ({ page }) => {
  await page.goto('/data-deletion');
  await expect(page.getByRole('heading', { name: 'What we access and store' })).toBeVisible();
  await expect(page.locator('main')).toContainText('Threads username');
  await expect(page.locator('main')).toContainText('30 days');
});

test('/about says what is curated, who decides and how often, in figures of the built catalogue', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`About ${SITE.title}`);
  for (const heading of ['What is curated', 'Who decides', 'How often', 'Contact'])
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  const main = page.locator('main');
  const manifest = JSON.parse(readFileSync(path.join(TEST_SITE.catalogueDir, 'manifest.json'), 'utf8')) as {
    generatedAt: string;
    nextUpdate: string;
  };
  const threads = JSON.parse(readFileSync(path.join(TEST_SITE.catalogueDir, 'threads-all.json'), 'utf8')) as {
    topic_tag: string | null;
  }[];
  await expect(main).toContainText(`It holds ${threads.length.toLocaleString('en-US')} threads on`);
  const interval = refreshInterval(manifest);
  if (interval) await expect(main).toContainText(`refreshed ${interval}`);
  await expect(main.getByRole('link', { name: 'Moderation log' })).toHaveAttribute('href', '/moderation');
  await expect(
    main.getByRole('link', { name: TEST_SITE.contactEmail ?? SITE.defaultContactEmail }),
  ).toBeVisible();
});

test('header and footer: title, subtitle, legal links that work', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('banner')).toContainText(SITE.title);
  await expect(page.getByRole('banner')).toContainText(SITE.subtitle);
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(SITE.studio);
  await footer.getByRole('link', { name: TEXTS.privacyPolicy }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await page.getByRole('contentinfo').getByRole('link', { name: TEXTS.termsOfUse }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Data deletion' }).click();
  await expect(page).toHaveURL(/\/data-deletion$/);
  await page
    .getByRole('banner')
    .getByRole('link', { name: new RegExp(SITE.title) })
    .click();
  await expect(page).toHaveURL(/\/$/);
});

test('the weekly digest: reached from the footer, says none is out yet, and its feeds answer', async ({
  page,
}) => {
  await page.goto('/about');
  await page.getByRole('contentinfo').getByRole('link', { name: 'The weekly digest' }).click();
  await expect(page).toHaveURL(/\/digest\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The weekly digest');
  // The test site's server has published no digest: the page says so, and how to get the first.
  await expect(page.getByText('No digest has been published yet.')).toBeVisible();
  const feeds = page.getByRole('region', { name: 'Get the next one' });
  for (const [name, type] of [
    ['RSS', 'application/rss+xml'],
    ['JSON Feed', 'application/feed+json'],
  ] as const) {
    const href = (await feeds.getByRole('link', { name }).getAttribute('href')) ?? '';
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()['content-type'], href).toContain(
      type === 'application/rss+xml' ? 'xml' : 'json',
    );
  }
  await expect(page.locator(`link[rel="alternate"][href$="/digest/feed.xml"]`)).toHaveCount(1);
  // No mail form without SMTP_URL: nothing to press that could not work.
  await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
});

for (const unknown of ['/this/page/does-not-exist', '/no-such-page']) {
  test(`${unknown} answers 404 with its own page, only the header and profile islands, and a way home`, async ({
    page,
    pageProblems,
  }) => {
    pageProblems.allow(/status of 404/);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const response = await page.goto(unknown);
    expect(response?.status()).toBe(404);
    await expectOnlyHeaderIsland(page, scripts, { profileLookup: true });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.notFoundTitle);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await page.getByRole('link', { name: TEXTS.returnToHome }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('article.thread-card').first()).toBeVisible();
  });
}

test('an address that may be a profile never paints the plain 404 first; without JavaScript it is that 404', async ({
  page,
  browser,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/user/profile/maybe_someone', async (route) => {
    await held;
    await route.continue();
  });
  // How the plain 404 looks the moment the parser inserts it, before any module script runs.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const section = document.getElementById('not-found');
      if (!section) return;
      (window as unknown as { firstLook?: string }).firstLook = getComputedStyle(section).visibility;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/maybe_someone');
  expect(await page.evaluate(() => (window as unknown as { firstLook?: string }).firstLook)).toBe('hidden');
  // Loaded, the lookup still held: the plain 404 is in the page but not to be seen.
  await expect(page.locator('#not-found')).toHaveCount(1);
  await expect(page.locator('#not-found')).toBeHidden();
  release();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.profileNotFound);
  await expect(page.locator('#not-found')).toBeHidden();

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto('/maybe_someone');
  await expect(plain.getByRole('heading', { level: 1 })).toHaveText(TEXTS.notFoundTitle);
  await expect(plain.locator('#not-found')).toBeVisible();
  await noScript.close();
});

test('sitemap.xml lists the public pages and robots.txt points to it', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const path of [
    '/',
    '/about',
    '/filter/text/',
    '/moderation',
    '/privacy',
    '/terms',
    '/data-deletion',
  ]) {
    expect(sitemap).toContain(`<loc>${new URL(path, TEST_SITE.publicUrl).href}</loc>`);
  }
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain(`Sitemap: ${TEST_SITE.publicUrl}/sitemap.xml`);
  expect(robots).toContain('Disallow: /api/');
});

test("/moderation: its own title and description, the empty log, only its island and the header's", async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/moderation');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(MODERATION_TEXTS.title);
  await expect(page).toHaveTitle(`${MODERATION_TEXTS.title} · ${SITE.title}`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    MODERATION_TEXTS.description,
  );
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    new RegExp(`^${TEST_SITE.publicUrl}/moderation/?$`),
  );
  // This server decides no thread: the log is empty, and says so.
  await expect(page.getByRole('status')).toHaveText(MODERATION_TEXTS.empty);
  await page.getByRole('button', { name: TEXTS.login }).hover(); // the header's island on first use
  await expect.poll(() => scripts.some((url) => /HeaderAuth/.test(url))).toBe(true);
  const names = scripts
    .filter((url) => /\/_astro\/[A-Z]/.test(url))
    .map((url) => url.replace(/.*\/_astro\/([A-Za-z]+).*/, '$1'));
  expect(names).toEqual(expect.arrayContaining(['HeaderAuth', 'ModerationLog']));
  const allowed = ['HeaderAuth', 'ModerationLog', 'DateTime', 'LoadFailed'];
  expect(names.filter((name) => !allowed.includes(name))).toEqual([]);
});

test('/moderation: a failed load says so with the reason and Try Again loads the log', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 503/);
  let failing = true;
  await page.route('**/api/moderation', (route) =>
    failing
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"detail":"Down for a moment."}',
        })
      : route.fallback(),
  );
  await page.goto('/moderation');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(MODERATION_TEXTS.loadFailed);
  await expect(alert).toContainText('Down for a moment.');
  failing = false;
  await alert.getByRole('button', { name: TEXTS.tryAgain }).click();
  await expect(page.getByRole('status')).toHaveText(MODERATION_TEXTS.empty);
});

test("every page shares with a preview picture: the site's, or a topic's own; a large Twitter card, 1200x630 PNGs", async ({
  page,
}) => {
  for (const pathname of ['/', '/about', '/privacy']) {
    await page.goto(pathname);
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    expect(image, pathname).toBe(new URL('/social.png', page.url()).href);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', /Curated Threads/);
  }
  // A topic page names its own picture, drawn by the server (decision 048).
  await page.goto('/topics');
  await page.locator('main a[href^="/topics/"]').first().click();
  const slug = new URL(page.url()).pathname.split('/')[2] ?? '';
  const topicImage = await page.locator('meta[property="og:image"]').getAttribute('content');
  expect(topicImage).toBe(new URL(`/social/topic/${slug}.png`, page.url()).href);
  for (const picture of ['/social.png', new URL(topicImage ?? '').pathname]) {
    const response = await page.request.get(picture);
    expect(response.status(), picture).toBe(200);
    expect(response.headers()['content-type']).toBe('image/png');
    const png = await response.body();
    // The PNG signature, then the IHDR chunk's width and height (big-endian, bytes 16-23).
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  }
});
