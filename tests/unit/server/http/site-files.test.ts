import { expect, test } from 'vitest';
import { catalogueCacheControl, siteCacheControl } from '../../../../server/http/site-files.ts';

test.each([
  ['/data/manifest.json', 'no-cache'],
  ['/data/threads-all.json', 'no-cache'],
  ['/data/pages/text/1.json', 'no-cache'],
  ['/data/search/index.json', 'no-cache'],
  // Content-hashed names never change: cached for good.
  ['/data/search/7479.4f0c1e9a2b.json', 'public, max-age=31536000, immutable'],
])('catalogue file %s is served with %s', (urlPath, expected) => {
  expect(catalogueCacheControl(urlPath)).toBe(expected);
});

test.each([
  ['/_astro/index.Bx12.js', 'public, max-age=31536000, immutable'],
  ['/index.html', 'no-cache'],
  ['/feed.xml', 'public, max-age=3600'],
])('site file %s is served with %s', (urlPath, expected) => {
  expect(siteCacheControl(urlPath)).toBe(expected);
});
