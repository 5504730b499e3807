import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import {
  removeWithSiblings,
  SIBLING_MIN_BYTES,
  writeIfChanged,
} from '../../../../../server/publisher/export/atomic-file.ts';

const newFile = async (name = 'threads-all.json') =>
  path.join(await mkdtemp(path.join(tmpdir(), 'ct-atomic-')), name);
const body = (n: number) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i, text: `card ${i}` })));

test('a body worth compressing gets .br and .gz siblings with the same content, stamped like the file', async () => {
  const file = await newFile();
  const text = body(200);
  expect(await writeIfChanged(file, text)).toBe(true);
  expect(brotliDecompressSync(await readFile(`${file}.br`)).toString()).toBe(text);
  expect(gunzipSync(await readFile(`${file}.gz`)).toString()).toBe(text);
  const [main, br, gz] = await Promise.all([file, `${file}.br`, `${file}.gz`].map((f) => stat(f)));
  expect(br?.mtimeMs).toBe(main?.mtimeMs);
  expect(gz?.mtimeMs).toBe(main?.mtimeMs);
  expect(br?.size).toBeLessThan(main?.size ?? 0);
  // Nothing temporary is left behind.
  expect((await readdir(path.dirname(file))).sort()).toEqual(
    ['threads-all.json', 'threads-all.json.br', 'threads-all.json.gz'].sort(),
  );
});

test('the same body again writes nothing; a new version is stamped after the one it replaces', async () => {
  const file = await newFile();
  await writeIfChanged(file, body(100));
  const first = await stat(file);
  expect(await writeIfChanged(file, body(100))).toBe(false);
  expect((await stat(file)).ino).toBe(first.ino);
  expect(await writeIfChanged(file, body(101))).toBe(true);
  const second = await stat(file);
  expect(second.mtimeMs).toBeGreaterThan(first.mtimeMs);
  expect((await stat(`${file}.br`)).mtimeMs).toBe(second.mtimeMs);
});

test('a file written before siblings existed gets them at the next write of the same body', async () => {
  const file = await newFile();
  await writeFile(file, body(100));
  expect(await writeIfChanged(file, body(100))).toBe(false);
  expect(gunzipSync(await readFile(`${file}.gz`)).toString()).toBe(body(100));
});

test('a small body has no siblings, and stale ones from a larger version are removed', async () => {
  const file = await newFile();
  await writeIfChanged(file, body(100));
  const small = '[]';
  expect(small.length).toBeLessThanOrEqual(SIBLING_MIN_BYTES);
  expect(await writeIfChanged(file, small)).toBe(true);
  expect(await readdir(path.dirname(file))).toEqual(['threads-all.json']);
});

test('without precompress only the file is written; removeWithSiblings removes all three', async () => {
  const file = await newFile('profiles.json');
  await writeIfChanged(file, body(50), { precompress: false });
  expect(await readdir(path.dirname(file))).toEqual(['profiles.json']);
  await writeIfChanged(file, body(60));
  expect((await readdir(path.dirname(file))).length).toBe(3);
  await removeWithSiblings(file);
  expect(await readdir(path.dirname(file))).toEqual([]);
  await rm(path.dirname(file), { recursive: true });
});
