import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { filesUnder } from '../../../../../server/publisher/export/files-under.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ct-files-under-'));
  for (const file of ['index.html', 'topics/a/index.html', 'data/pages/all/1.json', 'data/manifest.json'])
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true }).then(() =>
      writeFile(path.join(dir, file), 'x'),
    );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('every file below a folder, by relative path with / separators', async () => {
  expect((await filesUnder(dir, '')).sort()).toEqual([
    'data/manifest.json',
    'data/pages/all/1.json',
    'index.html',
    'topics/a/index.html',
  ]);
  expect(await filesUnder(dir, 'topics')).toEqual(['topics/a/index.html']);
  expect(await filesUnder(dir, 'missing')).toEqual([]);
});

test('a skipped folder is never entered: the site copy of a large catalogue is not listed', async () => {
  const asked: string[] = [];
  const files = await filesUnder(dir, '', (folder) => {
    asked.push(folder);
    return folder === 'data';
  });
  expect(files.sort()).toEqual(['index.html', 'topics/a/index.html']);
  // Asked about each folder it met, and never about one inside data/.
  expect(asked.sort()).toEqual(['data', 'topics', 'topics/a']);
});

test('a starting point that is not a folder is an error, not an empty list', async () => {
  await expect(filesUnder(dir, 'index.html')).rejects.toThrow(/ENOTDIR/);
});
