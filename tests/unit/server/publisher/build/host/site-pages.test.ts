import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
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
  // The thread template is filled by Node for /thread/{id} (decision 046), never served as it is.
  expect(pagePaths('thread/template/index.html')).toEqual([]);
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

test('sitePages writes brackets in attribute values as entities, and takes the CSP of that page', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-pages-'));
  const bio = '<meta content="</script><script>x()"><script>home()</script>';
  await writeFile(path.join(dir, 'index.html'), bio);
  const [page] = await sitePages(dir, { secure: true });
  const served = '<meta content="&lt;/script&gt;&lt;script&gt;x()"><script>home()</script>';
  expect(await readFile(path.join(dir, 'index.html'), 'utf8')).toBe(served);
  expect(page?.csp).toBe(pageCsp(served, { secure: true }));
  expect(page?.csp).toBe(pageCsp('<script>home()</script>', { secure: true }));
});
