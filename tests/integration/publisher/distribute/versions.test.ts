import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import {
  assembleVersion,
  removeOldVersions,
} from '../../../../server/publisher/distribute/local-versions.ts';
import { createObjectStore, pruneObjects } from '../../../../server/publisher/distribute/object-store.ts';
import { recordVersion } from '../../../../server/publisher/distribute/record-version.ts';
import { createHashCache } from '../../../../server/publisher/distribute/version-files.ts';
import { createSiteVersionsRepository } from '../../../../server/repositories/site-versions.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

async function found(id: number) {
  const version = await repository.find(id);
  if (!version) throw new Error(`version ${id} is missing`);
  return version;
}

// Decision 036: what one instance publishes, another assembles from the database alone.
const database = await testDatabase();
const repository = createSiteVersionsRepository(database.db);

beforeEach(() => resetDatabase(database));

async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-version-'));
  for (const [name, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), body);
  }
  return dir;
}

async function publishFrom(site: Record<string, string>, data: Record<string, string>, instanceId = 'a') {
  const publisher = await mkdtemp(path.join(tmpdir(), 'ct-publisher-'));
  return recordVersion({
    repository,
    objects: createObjectStore(path.join(publisher, 'objects')),
    hashOf: createHashCache(),
    siteDir: await folderWith(site),
    catalogueDir: await folderWith(data),
    instanceId,
    catalogueVersion: 'v1',
    leadMs: 0,
  });
}

test('the publisher lease is held by one instance until it is released or lapses', async () => {
  expect(await repository.claimLease('a', 60_000)).toBe(true);
  expect(await repository.claimLease('b', 60_000)).toBe(false);
  // Renewing one's own lease works; the other still waits.
  expect(await repository.claimLease('a', 60_000)).toBe(true);
  await repository.releaseLease('a');
  expect(await repository.claimLease('b', 60_000)).toBe(true);
  expect(await repository.claimLease('a', 60_000)).toBe(false);
  // A lease that ran out is anyone's.
  expect(await repository.claimLease('b', -1_000)).toBe(true);
  expect(await repository.claimLease('a', 60_000)).toBe(true);
});

test('a recorded version is assembled elsewhere from the database alone, byte for byte', async () => {
  const id = await publishFrom(
    {
      'index.html': '<h1>home</h1>',
      'index.html.br': 'br',
      '_astro/app.js': 'js',
      '.build-stamp.json': '{}',
      _headers: 'h',
    },
    { 'manifest.json': '{"version":"v1"}', 'pages/all/1.json': '[]', 'private.json': 'secret' },
  );
  const version = await repository.find(id);
  // jsonb keeps keys in its own order: compare them sorted.
  expect(Object.keys(version?.files ?? {}).sort()).toEqual([
    'data/manifest.json',
    'data/pages/all/1.json',
    'site/_astro/app.js',
    'site/index.html',
    'site/index.html.br',
  ]);
  const elsewhere = await mkdtemp(path.join(tmpdir(), 'ct-instance-'));
  const folders = await assembleVersion(await found(id), {
    repository,
    objects: createObjectStore(path.join(elsewhere, 'objects')),
    publishedDir: elsewhere,
  });
  expect(await readFile(path.join(folders.siteDir, 'index.html'), 'utf8')).toBe('<h1>home</h1>');
  expect(await readFile(path.join(folders.catalogueDir, 'pages/all/1.json'), 'utf8')).toBe('[]');
  await expect(readFile(path.join(folders.catalogueDir, 'private.json'))).rejects.toThrow();
});

test('the same files publish no new version; a change does, and pruning keeps what kept versions name', async () => {
  const site = { 'index.html': 'one', '404.html': 'missing' };
  const first = await publishFrom(site, { 'manifest.json': '{}' });
  expect(await publishFrom(site, { 'manifest.json': '{}' })).toBe(first);
  const second = await publishFrom({ ...site, 'index.html': 'two' }, { 'manifest.json': '{}' });
  expect(second).toBeGreaterThan(first);
  await repository.prune(1);
  expect(await repository.find(first)).toBeNull();
  const kept = await repository.find(second);
  const bodies = await repository.readObjects(Object.values(kept?.files ?? {}));
  expect(bodies.map((object) => object.body.toString()).sort()).toEqual(['missing', 'two', '{}']);
});

test('old assembled versions and unlinked objects are removed; the kept ones stay', async () => {
  const first = await publishFrom({ 'index.html': 'one' }, {});
  const second = await publishFrom({ 'index.html': 'two' }, {});
  const ids = [first, second];
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-instance-'));
  const objects = createObjectStore(path.join(dir, 'objects'));
  for (const id of ids) await assembleVersion(await found(id), { repository, objects, publishedDir: dir });
  await removeOldVersions(dir, [second]);
  await expect(readFile(path.join(dir, `v${first}`, 'site', 'index.html'))).rejects.toThrow();
  expect(await readFile(path.join(dir, `v${second}`, 'site', 'index.html'), 'utf8')).toBe('two');
  // Only the object of the removed version has no other link left.
  expect(await pruneObjects(path.join(dir, 'objects'), 0)).toBe(1);
  expect(await readFile(path.join(dir, `v${second}`, 'site', 'index.html'), 'utf8')).toBe('two');
});
