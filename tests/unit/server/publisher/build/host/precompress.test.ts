import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { precompressSite } from '../../../../../../server/publisher/build/host/precompress.ts';

async function site(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-precompress-'));
  for (const [name, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), body);
  }
  return dir;
}

test('every compressible file gets .br and .gz copies of its bytes; images and dot-files do not', async () => {
  const page = '<p>hello</p>'.repeat(50);
  const dir = await site({
    'index.html': page,
    '_astro/a.js': 'x',
    'data/pages/all/1.json': '{"cards":[]}',
    'sample/a.webp': 'RIFF',
    '.build-stamp.json': '{}',
  });
  expect(await precompressSite(dir)).toBe(3);
  expect(brotliDecompressSync(await readFile(path.join(dir, 'index.html.br'))).toString()).toBe(page);
  expect(gunzipSync(await readFile(path.join(dir, 'data/pages/all/1.json.gz'))).toString()).toBe(
    '{"cards":[]}',
  );
  expect((await readdir(path.join(dir, 'sample'))).sort()).toEqual(['a.webp']);
  expect((await readdir(dir)).filter((name) => name.startsWith('.build-stamp'))).toEqual([
    '.build-stamp.json',
  ]);
});

test("an unchanged file takes the previous build's copies; a changed one is compressed again", async () => {
  const previous = await site({ 'a.html': 'same', 'b.html': 'old' });
  await precompressSite(previous);
  // Marked copies: if they come through, they were reused rather than recompressed.
  await writeFile(path.join(previous, 'a.html.br'), 'reused-br');
  await writeFile(path.join(previous, 'b.html.br'), 'stale-br');
  const next = await site({ 'a.html': 'same', 'b.html': 'new' });
  await precompressSite(next, previous);
  expect(await readFile(path.join(next, 'a.html.br'), 'utf8')).toBe('reused-br');
  expect(brotliDecompressSync(await readFile(path.join(next, 'b.html.br'))).toString()).toBe('new');
});

test('files under a skipped folder (the catalogue, which brings its own copies) are not compressed', async () => {
  const dir = await site({ 'index.html': 'page', 'data/pages/all/1.json': '{"cards":[]}' });
  expect(await precompressSite(dir, undefined, { skipFolder: (folder) => folder === 'data' })).toBe(1);
  expect((await readdir(path.join(dir, 'data/pages/all'))).sort()).toEqual(['1.json']);
  expect((await readdir(dir)).sort()).toEqual(['data', 'index.html', 'index.html.br', 'index.html.gz']);
});
