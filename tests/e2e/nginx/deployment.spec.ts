import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIResponse, Response } from '@playwright/test';
import { CATALOGUE_PAGE_SIZE } from '../../../contract/catalogue-pages.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { STRICT_CSP } from '../../../server/http/security-headers.ts';
import { pageCsp } from '../../../server/http/page-csp.ts';
import { NGINX_SITE } from '../../site-under-test.ts';
import { expect, signInThroughPages, test, waitForHydration } from '../fixtures.ts';
import { callApi, signInApproved } from '../member-helpers.ts';

// The site as a deployment serves it: Debian's nginx with the generated server block serves the
// built files from disk and proxies /api/ (and the simulated provider) to our server.

const run = Date.now().toString(36).slice(-5);

/** The exact CSP of a built page (what our Node server sends for it), read from nginx's root. */
async function exactCsp(file: string): Promise<string> {
  return pageCsp(await readFile(path.join(NGINX_SITE.siteDir, file), 'utf8'), { secure: false });
}

async function expectPageHeaders(response: Response | APIResponse | null, file: string): Promise<void> {
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toBe(await exactCsp(file));
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cache-control']).toBe('no-cache');
}

test('the visitor walk: home cards, a filter and a topic page, each with its exact CSP', async ({ page }) => {
  const home = await page.goto('/');
  expect(home?.status()).toBe(200);
  await expectPageHeaders(home, 'index.html');
  await expect(page.locator('article.thread-card')).toHaveCount(CATALOGUE_PAGE_SIZE);
  await waitForHydration(page);

  const text = page.getByRole('button', { name: 'Text', exact: true });
  await text.click();
  await expect(text).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/\?filter=text$/);
  await expect(page.locator('article.thread-card').first()).toBeVisible();

  const topicLink = page.locator('article.thread-card a[href^="/topics/"]').first();
  const href = (await topicLink.getAttribute('href')) ?? '';
  const [topicPage] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === href),
    topicLink.click(),
  ]);
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expectPageHeaders(topicPage, `${href.slice(1).replace(/\/$/, '')}/index.html`);
  await expect(page.locator('article.thread-card').first()).toBeVisible();
  // Its preview picture is drawn by Node (decision 048): nginx proxies /social/ to it.
  const preview = (await page.locator('meta[property="og:image"]').getAttribute('content')) ?? '';
  expect(new URL(preview).pathname).toMatch(/^\/social\/topic\/.+\.png$/);
  const picture = await page.request.get(new URL(preview).pathname);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/png');
});

test('nginx serves the precompressed copies, the catalogue from its folder and the cache rules', async ({
  request,
}) => {
  const asset = (await readdir(path.join(NGINX_SITE.siteDir, '_astro'))).find((name) => name.endsWith('.js'));
  const gzipped = await request.get(`/_astro/${asset}`, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzipped.headers()['content-encoding']).toBe('gzip');
  expect(gzipped.headers()['cache-control']).toBe('public, max-age=31536000, immutable');

  const manifest = await request.get('/data/manifest.json');
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()['cache-control']).toBe('no-cache');
  const exported = JSON.parse(
    await readFile(path.join(NGINX_SITE.catalogueDir, 'manifest.json'), 'utf8'),
  ) as { version: string };
  expect(((await manifest.json()) as { version: string }).version).toBe(exported.version);
  const page = await request.get('/data/pages/all/1.json', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(page.status()).toBe(200);
  expect(page.headers()['content-encoding']).toBe('gzip');
  // The site folder holds no copy; the catalogue folder's private files are not served.
  await expect(access(path.join(NGINX_SITE.siteDir, 'data'))).rejects.toThrow();
  for (const hidden of ['/data/.export-state.json', '/data/pages/all/', '/data/nothing.json'])
    expect((await request.get(hidden)).status(), hidden).toBe(404);
  const api = await request.get('/api/health');
  expect(api.status()).toBe(200);
  // Node's own answer, passed through: no second set of headers from nginx.
  expect(api.headers()['content-security-policy']).toBe(STRICT_CSP);
});

test('sign-in through the simulated provider, proxied by nginx', async ({ page }) => {
  await signInThroughPages(page, `nginx_${run}`);
  await expect(page.getByRole('banner')).toContainText(`@nginx_${run}`);
});

test('a public profile through the 404 fallback: 404.html with its CSP asks the API', async ({
  page,
  newPage,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/);
  const name = `ngx_${run}`;
  await signInApproved(page, newPage, `member_${run}`);
  const saved = await callApi(
    page,
    '/api/user/profile',
    { display_username: name, bio: `Served by nginx ${run}` },
    'PUT',
  );
  expect(saved.status).toBe(200);

  // Upper case: never a pre-rendered file (nginx matches files by exact name), so always the fallback.
  const response = await page.goto(`/${name.toUpperCase()}`);
  expect(response?.status()).toBe(404);
  expect(response?.headers()['content-security-policy']).toBe(await exactCsp('404.html'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`@${name}`);
  await expect(page.locator('main')).toContainText(`Served by nginx ${run}`);
});

test('a multi-segment unknown path and 404.html by name answer 404 with the not-found page', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 404/);
  for (const unknown of ['/no/such/page', '/404.html']) {
    const response = await page.goto(unknown);
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-security-policy']).toBe(await exactCsp('404.html'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS.notFoundTitle);
  }
});
