import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEXTS } from '../../../contract/texts.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { buildTestApp } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

let app: FastifyInstance;
beforeAll(async () => {
  // The app serves the catalogue it exports from the database: with nothing approved, the sample.
  await resetDatabase(await testDatabase());
  app = await buildTestApp();
});
afterAll(() => app.close());

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
};

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers).toMatchObject(SECURITY_HEADERS);
  expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  expect(String(headers['content-security-policy'])).toContain("base-uri 'none'");
  expect(String(headers['content-security-policy'])).not.toContain('unsafe-inline');
}

describe('pages', () => {
  test('the home page is HTML, revalidated on every visit, with a per-page CSP', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<title>Curated Threads</title>');
    expectSecurityHeaders(res.headers);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  test.each(['/privacy', '/privacy/', '/terms', '/data-deletion', '/moderation'])(
    '%s is served',
    async (url) => {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    },
  );

  test('brotli when accepted, gzip as fallback, identical content either way', async () => {
    const plain = await app.inject({ url: '/', headers: { 'accept-encoding': 'identity' } });
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gz = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    const refused = await app.inject({ url: '/', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
  });

  test('a matching If-None-Match answers 304 without a body; another ETag gets the page', async () => {
    const first = await app.inject({ url: '/terms', headers: { 'accept-encoding': 'br' } });
    const etag = String(first.headers.etag);
    const again = await app.inject({
      url: '/terms',
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const changed = await app.inject({
      url: '/terms',
      headers: { 'accept-encoding': 'br', 'if-none-match': '"old"' },
    });
    expect(changed.statusCode).toBe(200);
  });

  test('HEAD answers the headers without a body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/privacy' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toContain('text/html');
  });
});

describe('assets and data', () => {
  test('hashed build assets are immutable for a year', async () => {
    const assets = await readdir(path.join(TEST_SITE.siteDir, '_astro'));
    const script = assets.find((name) => name.endsWith('.js'));
    const res = await app.inject({ url: `/_astro/${script}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(res.headers);
  });

  test('the catalogue is served from the data folder as JSON', async () => {
    const res = await app.inject({ url: '/data/threads-images.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const cards = res.json<{ image: string | null }[]>();
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((card) => card.image !== null)).toBe(true);
  });

  test.each(['/sitemap.xml', '/robots.txt', '/favicon.svg'])('%s is served', async (url) => {
    expect((await app.inject({ url })).statusCode).toBe(200);
  });
});

test.each([
  ['GET', '/'],
  ['GET', '/privacy'],
  ['GET', '/terms/'],
  ['GET', '/data-deletion'],
  ['GET', '/sitemap.xml'],
  ['GET', '/robots.txt'],
  ['GET', '/favicon.svg'],
  ['GET', '/sample/images/design-01.webp'],
  ['GET', '/data/manifest.json'],
  ['GET', '/data/threads-recent.json'],
  ['HEAD', '/'],
  ['HEAD', '/data/threads-all.json'],
  ['GET', '/api/health'],
] as const)('%s %s carries every security header', async (method, url) => {
  const res = await app.inject({ method, url });
  expect(res.statusCode).toBe(200);
  expectSecurityHeaders(res.headers);
});

describe('unknown paths', () => {
  test.each(['/404', '/404.html', '/404/'])('%s is not a page of its own: it answers 404', async (url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain(TEXTS.notFoundTitle);
  });

  test.each(['/no-such-page', '/a/b/c', '/privacy/../../etc/passwd', '/data'])(
    '%s gets the 404 page with status 404 and all security headers',
    async (url) => {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(TEXTS.notFoundTitle);
      expect(res.body).toContain(TEXTS.returnToHome);
      expectSecurityHeaders(res.headers);
    },
  );

  test.each(['/api/nothing', '/data/missing.json', '/api'])('%s answers JSON {detail} 404', async (url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: expect.stringContaining('Nothing here') });
    expectSecurityHeaders(res.headers);
  });

  test('a malformed address answers 400 {detail} with the security headers', async () => {
    const res = await app.inject({ url: '/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: expect.stringContaining('not valid') });
    expectSecurityHeaders(res.headers);
  });

  test('errors keep the security headers and a {detail} body without a stack', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken": ',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(Object.keys(res.json())).toEqual(['detail']);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    expectSecurityHeaders(res.headers);
  });
});

test('over https every response carries HSTS for a year and upgrades insecure requests', async () => {
  const secureApp = await buildTestApp({ PUBLIC_URL: 'https://curated.example' });
  try {
    for (const url of ['/', '/api/health', '/missing']) {
      const res = await secureApp.inject({ url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
    expect((await secureApp.inject({ url: '/' })).headers['content-security-policy']).toContain(
      'upgrade-insecure-requests',
    );
  } finally {
    await secureApp.close();
  }
});

test('only the public catalogue files are served from the data folder', async () => {
  const catalogue = await mkdtemp(path.join(tmpdir(), 'ct-catalogue-'));
  await cp(TEST_SITE.catalogueDir, catalogue, { recursive: true });
  await writeFile(path.join(catalogue, 'threads-pending-review.json'), '[{"secret":true}]');
  await writeFile(path.join(catalogue, 'threads-all.json.1a2b.tmp'), '[');
  await writeFile(path.join(catalogue, 'notes.txt'), 'private');
  const scoped = await buildTestApp({ CATALOGUE_DIR: catalogue });
  try {
    for (const name of [
      'manifest.json',
      'threads-all.json',
      'threads-text.json',
      'threads-images.json',
      'threads-recent.json',
    ]) {
      expect((await scoped.inject({ url: `/data/${name}` })).statusCode, name).toBe(200);
    }
    for (const name of ['threads-pending-review.json', 'threads-all.json.1a2b.tmp', 'notes.txt']) {
      expect((await scoped.inject({ url: `/data/${name}` })).statusCode, name).toBe(404);
    }
  } finally {
    await scoped.close();
  }
});

test('with SERVE_SITE=false (the API behind npm run dev) pages are not served, the catalogue is', async () => {
  const apiOnly = await buildTestApp({ SERVE_SITE: 'false' });
  try {
    const page = await apiOnly.inject({ url: '/privacy' });
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual({ detail: expect.stringContaining('Nothing here') });
    expect((await apiOnly.inject({ url: '/data/manifest.json' })).statusCode).toBe(200);
    expect((await apiOnly.inject({ url: '/api/health' })).statusCode).toBe(200);
  } finally {
    await apiOnly.close();
  }
});

test("the build's host files are not site files: data/ is served live, _headers and .br/.gz never", async () => {
  const site = await mkdtemp(path.join(tmpdir(), 'ct-site-'));
  await cp(TEST_SITE.siteDir, site, { recursive: true });
  // A stale copy in data/ (as `npm run build` leaves for a static host): the server answers from
  // its own catalogue folder instead.
  await mkdir(path.join(site, 'data'), { recursive: true });
  await writeFile(path.join(site, 'data', 'threads-text.json'), '["from dist"]');
  // A precompressed copy the server takes instead of compressing again.
  await writeFile(
    path.join(site, 'privacy', 'index.html.br'),
    brotliCompressSync(await readFile(path.join(site, 'privacy', 'index.html')), {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 1 }, // not what the server would make (11)
    }),
  );
  const scoped = await buildTestApp({ SITE_DIR: site });
  try {
    const text = await scoped.inject({ url: '/data/threads-text.json' });
    expect(text.statusCode).toBe(200);
    expect(text.body).not.toContain('from dist');
    for (const url of ['/_headers', '/index.html.br', '/index.html.gz', '/privacy/index.html.gz']) {
      const res = await scoped.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(TEXTS.notFoundTitle);
    }
    const br = await scoped.inject({ url: '/privacy', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(await readFile(path.join(site, 'privacy', 'index.html.br')))).toBe(true);
  } finally {
    await scoped.close();
  }
});
