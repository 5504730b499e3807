import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  jsBytesPerPage,
  pageUrlPath,
  resolveScript,
  scriptUrlsOfHtml,
  staticImports,
} from '../../../../scripts/bench/js-bytes.ts';
import { withoutScripts } from '../../../../scripts/bench/no-js.ts';

const HOME = `<!doctype html><html><head>
<script type="module" src="/_astro/page.js"></script>
<link rel="modulepreload" href="/_astro/preloaded.js">
<script>(()=>{var e=this.getAttribute("component-export");import("/_astro/never.js")})();</script>
</head><body>
<astro-island uid="1" component-url="/_astro/Island.js" component-export="default" renderer-url="/_astro/client.js" props="{}" client="idle"></astro-island>
<script type="module">import "/_astro/inline-dep.js";</script>
</body></html>`;

const FILES: Record<string, string> = {
  'index.html': HOME,
  'legal/index.html': '<html><body><script type="module" src="../_astro/page.js"></script></body></html>',
  '404.html': '<html><body>No scripts here</body></html>',
  '_astro/page.js': 'import{a as b}from"./shared.js";b();',
  '_astro/Island.js':
    'import{j}from"./jsx.js";export{x}from"./shared.js";const lazy=()=>import("./lazy.js");',
  '_astro/client.js': 'import"./jsx.js";console.log("client")',
  '_astro/jsx.js': 'export const j=1;',
  '_astro/shared.js': 'export const a=()=>1,x=2;',
  '_astro/preloaded.js': 'export default 3;',
  '_astro/inline-dep.js': 'export default 4;',
  '_astro/lazy.js': 'export default "only when imported dynamically";',
  '_astro/never.js': 'export default 5;',
};

let dist: string;
beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'bench-js-bytes-'));
  for (const [name, body] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dist, name)), { recursive: true });
    await writeFile(path.join(dist, name), body);
  }
});
afterAll(() => rm(dist, { recursive: true, force: true }));

describe('the walker', () => {
  test('finds module scripts, modulepreloads, island component and renderer URLs and inline static imports', () => {
    expect(scriptUrlsOfHtml(HOME).sort()).toEqual([
      '/_astro/Island.js',
      '/_astro/client.js',
      '/_astro/inline-dep.js',
      '/_astro/page.js',
      '/_astro/preloaded.js',
    ]);
  });

  test('static imports and re-exports, not dynamic import() nor words that end in "export"', () => {
    expect(staticImports(FILES['_astro/Island.js'] ?? '')).toEqual(['./jsx.js', './shared.js']);
    expect(staticImports('a.getAttribute("component-export")')).toEqual([]);
    expect(staticImports('import x from "./x.js";\nimport * as y from \'../y.js\'')).toEqual([
      './x.js',
      '../y.js',
    ]);
  });

  test('resolves same-origin paths against the importer; other origins and bare names are not files', () => {
    expect(resolveScript('./b.js', '/_astro/a.js')).toBe('/_astro/b.js');
    expect(resolveScript('../_astro/b.js?v=1', '/legal/')).toBe('/_astro/b.js');
    expect(resolveScript('/_astro/c.js', '/')).toBe('/_astro/c.js');
    expect(resolveScript('https://cdn.example/x.js', '/')).toBeNull();
    expect(resolveScript('//cdn.example/x.js', '/')).toBeNull();
    expect(resolveScript('react', '/')).toBeNull();
  });

  test('URL paths of built pages', () => {
    expect(pageUrlPath('index.html')).toBe('/');
    expect(pageUrlPath(path.join('legal', 'index.html'))).toBe('/legal/');
    expect(pageUrlPath('404.html')).toBe('/404.html');
  });

  test('each page: the scripts it loads through static imports, raw and brotli bytes', async () => {
    const pages = await jsBytesPerPage(dist);
    expect(pages.map((page) => page.page)).toEqual(['/404.html', '/', '/legal/']);
    const bytes = (...names: string[]) => ({
      raw: names.reduce((sum, name) => sum + Buffer.byteLength(FILES[`_astro/${name}`] ?? ''), 0),
      brotli: names.reduce((sum, name) => sum + brotliCompressSync(FILES[`_astro/${name}`] ?? '').length, 0),
    });
    const home = bytes(
      'page.js',
      'shared.js',
      'preloaded.js',
      'Island.js',
      'jsx.js',
      'client.js',
      'inline-dep.js',
    );
    expect(pages[1]).toEqual({ page: '/', scripts: 7, rawBytes: home.raw, brotliBytes: home.brotli });
    const legal = bytes('page.js', 'shared.js');
    expect(pages[2]).toEqual({ page: '/legal/', scripts: 2, rawBytes: legal.raw, brotliBytes: legal.brotli });
    expect(pages[0]).toEqual({ page: '/404.html', scripts: 0, rawBytes: 0, brotliBytes: 0 });
  });

  test('a script a page names that is not in the dist is an error', async () => {
    await writeFile(path.join(dist, 'broken.html'), '<script type="module" src="/_astro/gone.js"></script>');
    await expect(jsBytesPerPage(dist)).rejects.toThrow(/gone\.js/);
    await rm(path.join(dist, 'broken.html'));
  });
});

test("withoutScripts removes every script and modulepreload, and keeps the islands' HTML", () => {
  const stripped = withoutScripts(HOME);
  expect(stripped).not.toMatch(/<script/i);
  expect(stripped).not.toContain('modulepreload');
  expect(stripped).toContain('<astro-island uid="1"');
  expect(stripped).toContain('</body></html>');
});
