import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { pageCsp } from '../../../../../../server/http/page-csp.ts';
import { pagePaths, sitePages } from '../../../../../../server/publisher/build/host/site-pages.ts';

test('pagePaths: home, directory pages with and without the slash, x.html, and none for 404.html', () => {
  expect(pagePaths('index.html')).toEqual(['/']);
  expect(pagePaths('topics/color/index.html')).toEqual(['/topics/color', '/topics/color/']);
  expect(pagePaths('about.html')).toEqual(['/about']);
  expect(pagePaths('404.html')).toEqual([]);
});

test("sitePages lists the built pages with the Node server's CSP, not the catalogue copy", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-pages-'));
  await mkdir(path.join(dir, 'privacy'));
  await mkdir(path.join(dir, 'data'));
  await writeFile(path.join(dir, 'index.html'), '<script>home()</script>');
  await writeFile(path.join(dir, 'privacy/index.html'), '<p>privacy</p>');
  await writeFile(path.join(dir, 'data/stray.html'), '<p>not a page</p>');
  const pages = await sitePages(dir, { secure: true });
  expect(pages.map((page) => page.file)).toEqual(['index.html', 'privacy/index.html']);
  expect(pages[0]?.csp).toBe(pageCsp('<script>home()</script>', { secure: true }));
});
