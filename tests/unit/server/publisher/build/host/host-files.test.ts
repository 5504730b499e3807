import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { nginxConfFile, writeHostFiles } from '../../../../../../server/publisher/build/host/host-files.ts';

async function builtSite(): Promise<{ staging: string; siteDir: string; catalogueDir: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'ct-host-'));
  const staging = path.join(root, 'staging');
  const catalogueDir = path.join(root, 'catalogue');
  await mkdir(staging);
  await mkdir(catalogueDir);
  await writeFile(path.join(staging, 'index.html'), '<script>home()</script><p>home</p>');
  await writeFile(path.join(staging, '404.html'), '<p>Oops! Page not found</p>');
  return { staging, siteDir: path.join(root, 'dist'), catalogueDir };
}

test("API_BASE_URL's origin joins connect-src in _headers and in the nginx block, every page alike", async () => {
  const { staging, siteDir, catalogueDir } = await builtSite();
  await writeHostFiles(staging, {
    siteDir,
    catalogueDir,
    publicUrl: 'https://www.example.com',
    apiBaseUrl: 'https://api.example.com/',
  });
  const headers = await readFile(path.join(staging, '_headers'), 'utf8');
  const nginx = await readFile(nginxConfFile(siteDir), 'utf8');
  const connect = /connect-src ([^;]+)/g;
  const inHeaders = [...headers.matchAll(connect)].map((match) => match[1]);
  const inNginx = [...nginx.matchAll(connect)].map((match) => match[1]);
  // The union on /*, home's own rule, and nginx's home and 404 locations.
  expect(inHeaders.length).toBeGreaterThanOrEqual(2);
  expect(inNginx.length).toBeGreaterThanOrEqual(2);
  for (const sources of [...inHeaders, ...inNginx]) expect(sources).toBe("'self' https://api.example.com");
});

test('without API_BASE_URL the pages connect to their own origin only', async () => {
  const { staging, siteDir, catalogueDir } = await builtSite();
  await writeHostFiles(staging, { siteDir, catalogueDir, publicUrl: 'https://www.example.com' });
  const headers = await readFile(path.join(staging, '_headers'), 'utf8');
  expect(headers).toContain("connect-src 'self';");
  expect(headers).not.toContain('api.example.com');
});

test("for a static host the catalogue is linked into data/ with the export's own .br/.gz copies; private files stay out", async () => {
  const { staging, siteDir, catalogueDir } = await builtSite();
  const pages = path.join(catalogueDir, 'pages', 'all');
  await mkdir(pages, { recursive: true });
  const big = JSON.stringify({ cards: Array.from({ length: 50 }, (_, i) => ({ id: `card ${i}` })) });
  await writeFile(path.join(pages, '1.json'), big);
  await writeFile(path.join(pages, '1.json.br'), 'the export brotli copy');
  await writeFile(path.join(pages, '1.json.gz'), 'the export gzip copy');
  await writeFile(path.join(catalogueDir, 'manifest.json'), '{}');
  await writeFile(path.join(catalogueDir, '.export-state.json'), '{}');
  await writeHostFiles(staging, {
    siteDir,
    catalogueDir,
    publicUrl: 'https://www.example.com',
    catalogueInSite: true,
  });
  const data = path.join(staging, 'data');
  expect(await readFile(path.join(data, 'pages/all/1.json'), 'utf8')).toBe(big);
  // Linked, not compressed again.
  expect(await readFile(path.join(data, 'pages/all/1.json.br'), 'utf8')).toBe('the export brotli copy');
  expect(await readFile(path.join(data, 'pages/all/1.json.gz'), 'utf8')).toBe('the export gzip copy');
  expect((await readdir(data)).sort()).toEqual(['manifest.json', 'pages']);
});

test("the server's own rebuild leaves the catalogue out of the site: nginx serves it from its folder", async () => {
  const { staging, siteDir, catalogueDir } = await builtSite();
  await mkdir(path.join(catalogueDir, 'pages', 'all'), { recursive: true });
  await writeFile(path.join(catalogueDir, 'pages', 'all', '1.json'), '{"cards":[]}');
  await writeFile(path.join(catalogueDir, 'manifest.json'), '{}');
  const lines = await writeHostFiles(staging, {
    siteDir,
    catalogueDir,
    publicUrl: 'https://www.example.com',
  });
  expect(await readdir(staging)).not.toContain('data');
  expect(lines.at(-1)).not.toContain('catalogue files');
  expect(await readFile(nginxConfFile(siteDir), 'utf8')).toContain(`alias "${catalogueDir}/$1";`);
});
