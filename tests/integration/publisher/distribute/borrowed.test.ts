import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import { createObjectStore } from '../../../../server/publisher/distribute/object-store.ts';
import { createVersionRecorder } from '../../../../server/publisher/distribute/record-version.ts';
import { newestFile } from '../../../../server/publisher/distribute/version-files.ts';
import { BorrowedCatalogue } from '../../../../server/publisher/serve/borrowed-catalogue.ts';
import { catalogueOptions, ServedSite } from '../../../../server/publisher/serve/served-site.ts';
import { createSiteVersionsRepository } from '../../../../server/repositories/site-versions.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Decision 045: an instance that switches late is asked for files of the version the others serve.
const database = await testDatabase();
const repository = createSiteVersionsRepository(database.db);

beforeEach(() => resetDatabase(database));

async function folders(files: Record<string, string>) {
  const root = await mkdtemp(path.join(tmpdir(), 'ct-borrow-'));
  for (const [file, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), body);
  }
  return { root, siteDir: path.join(root, 'site'), catalogueDir: path.join(root, 'data') };
}

async function answer(served: ServedSite, pathname: string) {
  const found = await served.catalogue.answer(pathname, {
    method: 'GET',
    acceptEncoding: 'br, gzip',
    ifNoneMatch: undefined,
  });
  return found && { status: found.status, headers: found.headers, body: String(found.body) };
}

test('files of a newer version are borrowed from the database until this instance switches to it', async () => {
  const base = { 'site/index.html': '<p>one</p>', 'site/404.html': 'missing' };
  const one = await folders({ ...base, 'data/manifest.json': '{"version":"one"}' });
  const shard = `{"version":"two","terms":[${'"design",'.repeat(60)}"end"]}`;
  const two = await folders({
    ...base,
    'data/manifest.json': '{"version":"two"}',
    'data/search/two-1a2b.json': shard,
    'data/pages/all/2.json': '{"page":2}',
  });
  // The publisher recorded version two; this instance still serves one.
  const recorder = createVersionRecorder({
    repository,
    objects: createObjectStore(path.join(two.root, 'objects')),
    instanceId: 'publisher',
    leadMs: 0,
  });
  await recorder.record({ siteDir: two.siteDir, catalogueDir: two.catalogueDir, catalogueVersion: 'two' });

  const served = await ServedSite.load({
    siteDir: one.siteDir,
    catalogueDir: one.catalogueDir,
    secure: false,
  });
  const borrowedDir = path.join(one.root, 'borrowed');
  const borrowed = new BorrowedCatalogue(borrowedDir, catalogueOptions(false), (key) =>
    newestFile(repository, key),
  );
  await borrowed.start();
  served.borrowMissing(borrowed);

  // What it holds is its own version's; what only the newer one has comes from the database.
  expect((await answer(served, '/data/manifest.json'))?.body).toBe('{"version":"one"}');
  const borrowedShard = await answer(served, '/data/search/two-1a2b.json');
  expect(borrowedShard?.status).toBe(200);
  expect(borrowedShard?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  // Compressed like any catalogue file.
  expect(borrowedShard?.headers['content-encoding']).toBe('br');
  expect((await answer(served, '/data/pages/all/2.json'))?.body).toBe('{"page":2}');
  // A name no version has is a 404, and it is not fetched again for a while.
  expect(await answer(served, '/data/pages/all/7.json')).toBeUndefined();
  // Not a catalogue name at all: never looked up.
  expect(await answer(served, '/data/../secrets.json')).toBeUndefined();

  // Switched: the version served has them itself, and what was borrowed is dropped.
  served.activate(await served.prepare({ siteDir: two.siteDir, catalogueDir: two.catalogueDir }));
  expect((await answer(served, '/data/manifest.json'))?.body).toBe('{"version":"two"}');
  expect((await answer(served, '/data/pages/all/2.json'))?.body).toBe('{"page":2}');
  await expect.poll(async () => (await readdir(borrowedDir).catch(() => [])).length).toBe(0);
});

test('a lookup that fails (the database unreachable) answers 404, never an error', async () => {
  const one = await folders({
    'site/index.html': '<p>one</p>',
    'site/404.html': 'missing',
    'data/manifest.json': '{}',
  });
  const served = await ServedSite.load({
    siteDir: one.siteDir,
    catalogueDir: one.catalogueDir,
    secure: false,
  });
  served.borrowMissing(
    new BorrowedCatalogue(path.join(one.root, 'borrowed'), catalogueOptions(false), () =>
      Promise.reject(new Error('connection refused')),
    ),
  );
  expect(await answer(served, '/data/pages/all/2.json')).toBeUndefined();
});
