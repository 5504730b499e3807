import { link, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import {
  assembleInSlot,
  chooseSlot,
  removeLegacyVersions,
  slotVersion,
} from '../../../../server/publisher/distribute/local-versions.ts';
import {
  createObjectStore,
  pruneNamedObjects,
  pruneObjects,
} from '../../../../server/publisher/distribute/object-store.ts';
import { createVersionRecorder } from '../../../../server/publisher/distribute/record-version.ts';
import { createPublisherLeaseRepository } from '../../../../server/repositories/publisher-lease.ts';
import {
  createSiteVersionsRepository,
  StaleVersionBase,
} from '../../../../server/repositories/site-versions.ts';
import { siteObjects } from '../../../../server/db/schema.ts';
import { eq } from 'drizzle-orm';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Decisions 036 and 044: what one instance publishes, another assembles from the database alone, and
// each version after the first travels as what it changed.
const database = await testDatabase();
const repository = createSiteVersionsRepository(database.db);
const leases = createPublisherLeaseRepository(database.db);

beforeEach(() => resetDatabase(database));

type Files = Record<string, string>;

/** Writes `files` into `dir` as they are now: the ones not named are removed. */
async function lay(dir: string, files: Files, before: Files = {}) {
  for (const name of Object.keys(before))
    if (!(name in files)) await rm(path.join(dir, name), { force: true });
  for (const [name, body] of Object.entries(files)) {
    if (before[name] === body) continue;
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    // Replaced, not written in place, as the export and the build do.
    await writeFile(`${file}.new`, body);
    await rm(file, { force: true });
    await link(`${file}.new`, file);
    await rm(`${file}.new`);
  }
}

/** A publishing instance: its working folders and its recorder. */
async function publisher(instanceId = 'a') {
  const root = await mkdtemp(path.join(tmpdir(), 'ct-publisher-'));
  const [siteDir, catalogueDir] = [path.join(root, 'site'), path.join(root, 'data')];
  await mkdir(siteDir);
  await mkdir(catalogueDir);
  const recorder = createVersionRecorder({
    repository,
    objects: createObjectStore(path.join(root, 'objects')),
    instanceId,
    leadMs: 0,
  });
  let laid: { site: Files; data: Files } = { site: {}, data: {} };
  return async (site: Files, data: Files) => {
    await lay(siteDir, site, laid.site);
    await lay(catalogueDir, data, laid.data);
    laid = { site, data };
    return recorder.record({ siteDir, catalogueDir, catalogueVersion: 'v1' });
  };
}

/** Another instance: its own store and version folders. */
async function instance() {
  const publishedDir = await mkdtemp(path.join(tmpdir(), 'ct-instance-'));
  const objects = createObjectStore(path.join(publishedDir, 'objects'));
  return { publishedDir, objects, context: { repository, objects, publishedDir } };
}

test(
  'the publisher lease is held by one instance until it is released or lapses',
  { tags: ['engine'] },
  async () => {
    expect(await leases.claimLease('a', 60_000)).toBe(true);
    expect(await leases.claimLease('b', 60_000)).toBe(false);
    // Renewing one's own lease works; the other still waits.
    expect(await leases.claimLease('a', 60_000)).toBe(true);
    await leases.releaseLease('a');
    expect(await leases.claimLease('b', 60_000)).toBe(true);
    expect(await leases.claimLease('a', 60_000)).toBe(false);
    // A lease that ran out is anyone's.
    expect(await leases.claimLease('b', -1_000)).toBe(true);
    expect(await leases.claimLease('a', 60_000)).toBe(true);
  },
);

test(
  'a recorded version is assembled elsewhere from the database alone, byte for byte',
  { tags: ['engine'] },
  async () => {
    const publish = await publisher();
    const id = await publish(
      {
        'index.html': '<h1>home</h1>',
        'index.html.br': 'br',
        '_astro/app.js': 'js',
        '.build-stamp.json': '{}',
        _headers: 'h',
      },
      { 'manifest.json': '{"version":"v1"}', 'pages/all/1.json': '[]', 'private.json': 'secret' },
    );
    expect([...(await repository.filesAt(id)).keys()].sort()).toEqual([
      'data/manifest.json',
      'data/pages/all/1.json',
      'site/_astro/app.js',
      'site/index.html',
      'site/index.html.br',
    ]);
    expect(await repository.find(id)).toMatchObject({ fileCount: 5, changedCount: 5 });
    const elsewhere = await instance();
    const { folders, whole } = await assembleInSlot(0, id, elsewhere.context);
    expect(whole).toBe(true);
    expect(await slotVersion(elsewhere.publishedDir, 0)).toBe(id);
    expect(await readFile(path.join(folders.siteDir, 'index.html'), 'utf8')).toBe('<h1>home</h1>');
    expect(await readFile(path.join(folders.catalogueDir, 'pages/all/1.json'), 'utf8')).toBe('[]');
    await expect(readFile(path.join(folders.catalogueDir, 'private.json'))).rejects.toThrow();
  },
);

test('a version records only what changed, also after another publisher took over', async () => {
  const site = { 'index.html': 'one', '404.html': 'missing', 'gone.html': 'soon' };
  const first = await (await publisher('a'))(site, { 'manifest.json': '{}' });
  // A takeover: a new publisher with the same files records nothing.
  const takeover = await publisher('b');
  expect(await takeover(site, { 'manifest.json': '{}' })).toBe(first);
  const second = await takeover({ 'index.html': 'two', '404.html': 'missing' }, { 'manifest.json': '{}' });
  expect(second).toBeGreaterThan(first);
  expect(await repository.find(second)).toMatchObject({ fileCount: 3, changedCount: 2, publisher: 'b' });
  expect(await repository.changesBetween(first, second)).toEqual({
    changed: new Map([['site/index.html', (await repository.filesAt(second)).get('site/index.html')]]),
    removed: ['site/gone.html'],
    replaced: expect.arrayContaining([
      (await repository.filesAt(first)).get('site/index.html'),
      (await repository.filesAt(first)).get('site/gone.html'),
    ]) as unknown as string[],
  });
  // The first version is still whole while it is kept.
  expect((await repository.filesAt(first)).get('site/gone.html')).toBeDefined();
});

test('pruning keeps every file and object a kept version names, and drops the rest', async () => {
  const publish = await publisher();
  const first = await publish({ 'index.html': 'one', '404.html': 'missing' }, { 'manifest.json': '{}' });
  const second = await publish({ 'index.html': 'two', '404.html': 'missing' }, { 'manifest.json': '{}' });
  await repository.prune(1);
  expect(await repository.find(first)).toBeNull();
  expect(await repository.oldestId()).toBe(second);
  const files = await repository.filesAt(second);
  expect(files.size).toBe(3);
  const bodies = await repository.readObjects([...files.values()]);
  expect(bodies.map((object) => object.body.toString()).sort()).toEqual(['missing', 'two', '{}']);
  // 'one' was only the first version's.
  expect(await repository.missingObjects([...files.values()])).toEqual([]);
  const third = await publish({ 'index.html': 'one', '404.html': 'missing' }, { 'manifest.json': '{}' });
  expect(await repository.missingObjects([...(await repository.filesAt(third)).values()])).toEqual([]);
});

test('a slot catches up by the changes alone: unchanged files keep their inode, served bytes never change', async () => {
  const publish = await publisher();
  const first = await publish(
    { 'index.html': 'one', 'about/index.html': 'about', 'old.html': 'old' },
    { 'manifest.json': '{}' },
  );
  const elsewhere = await instance();
  const { folders } = await assembleInSlot(0, first, elsewhere.context);
  const about = path.join(folders.siteDir, 'about/index.html');
  const aboutInode = (await stat(about)).ino;
  // A reader's hold on the served file: a change must replace it, never write into it.
  const held = path.join(elsewhere.publishedDir, 'held.html');
  await link(path.join(folders.siteDir, 'index.html'), held);
  await publish({ 'index.html': 'two', 'about/index.html': 'about' }, { 'manifest.json': '{}' });
  const third = await publish(
    { 'index.html': 'three', 'about/index.html': 'about', 'new/page.html': 'new' },
    { 'manifest.json': '{}' },
  );
  const caught = await assembleInSlot(0, third, elsewhere.context);
  expect(caught.whole).toBe(false);
  expect(await readFile(path.join(folders.siteDir, 'index.html'), 'utf8')).toBe('three');
  expect(await readFile(path.join(folders.siteDir, 'new/page.html'), 'utf8')).toBe('new');
  await expect(readFile(path.join(folders.siteDir, 'old.html'))).rejects.toThrow();
  expect((await stat(about)).ino).toBe(aboutInode);
  expect(await readFile(held, 'utf8')).toBe('one');
  // The objects the slot let go: 'old' has no link left; 'one' is still held by the reader's link.
  expect(await pruneNamedObjects(elsewhere.objects, caught.replaced)).toBe(1);
  await rm(held);
  expect(await pruneNamedObjects(elsewhere.objects, caught.replaced)).toBe(1);
  expect(await readFile(path.join(folders.siteDir, 'about/index.html'), 'utf8')).toBe('about');
});

test('a slot cut short, or holding a version no longer kept, is laid out whole', async () => {
  const publish = await publisher();
  const first = await publish({ 'index.html': 'one', 'a.html': 'a' }, {});
  const elsewhere = await instance();
  await assembleInSlot(1, first, elsewhere.context);
  const second = await publish({ 'index.html': 'two' }, {});
  // Cut short: the marker is gone, so what the slot holds is not trusted.
  await rm(path.join(elsewhere.publishedDir, 'slots', '1.version'));
  await writeFile(path.join(elsewhere.publishedDir, 'slots', '1', 'site', 'stray.html'), 'stray');
  const redone = await assembleInSlot(1, second, elsewhere.context);
  expect(redone.whole).toBe(true);
  await expect(readFile(path.join(redone.folders.siteDir, 'stray.html'))).rejects.toThrow();
  await expect(readFile(path.join(redone.folders.siteDir, 'a.html'))).rejects.toThrow();
  // Another slot still at the first version, which pruning removed: it cannot catch up by changes.
  await assembleInSlot(2, first, elsewhere.context);
  const third = await publish({ 'index.html': 'three' }, {});
  await repository.prune(1);
  const late = await assembleInSlot(2, third, elsewhere.context);
  expect(late.whole).toBe(true);
  expect(await readFile(path.join(late.folders.siteDir, 'index.html'), 'utf8')).toBe('three');
  await expect(readFile(path.join(late.folders.siteDir, 'a.html'))).rejects.toThrow();
});

test('the free slot holding the newest version is chosen; folders of earlier releases and unlinked objects go', async () => {
  const publish = await publisher();
  const first = await publish({ 'index.html': 'one' }, {});
  const second = await publish({ 'index.html': 'two' }, {});
  const elsewhere = await instance();
  await assembleInSlot(0, first, elsewhere.context);
  await assembleInSlot(2, second, elsewhere.context);
  expect(await chooseSlot(elsewhere.publishedDir, new Set())).toBe(2);
  expect(await chooseSlot(elsewhere.publishedDir, new Set([2]))).toBe(0);
  expect(await chooseSlot(elsewhere.publishedDir, new Set([0, 2]))).toBe(1);
  await mkdir(path.join(elsewhere.publishedDir, 'v7', 'site'), { recursive: true });
  await removeLegacyVersions(elsewhere.publishedDir);
  await expect(stat(path.join(elsewhere.publishedDir, 'v7'))).rejects.toThrow();
  expect(await slotVersion(elsewhere.publishedDir, 0)).toBe(first);
  // Slot 0 moves on to the second version: the first's object has no link left.
  await assembleInSlot(0, second, elsewhere.context);
  expect(await pruneObjects(path.join(elsewhere.publishedDir, 'objects'), 0)).toBe(1);
  expect(await readFile(path.join(elsewhere.publishedDir, 'slots/0/site/index.html'), 'utf8')).toBe('two');
});

test(
  'a version is refused when another was recorded since its changes were read, or the lease moved',
  { tags: ['engine'] },
  async () => {
    const publish = await publisher();
    const first = await publish({ 'index.html': 'one' }, {});
    const second = await publish({ 'index.html': 'two' }, {});
    const changes = new Map([['site/index.html', 'x']]);
    const attempt = (base: number | null, leaseHolder?: string) =>
      repository.insertVersion({ base, changes, catalogueVersion: null, publisher: 'a', leaseHolder }, 0);
    await expect(attempt(first)).rejects.toBeInstanceOf(StaleVersionBase);
    await expect(attempt(null)).rejects.toBeInstanceOf(StaleVersionBase);
    // Nothing of the refused attempts was written.
    expect(await repository.latestId()).toBe(second);
    expect((await repository.filesAt(second)).get('site/index.html')).not.toBe('x');
    await expect(attempt(second, 'a')).rejects.toBeInstanceOf(StaleVersionBase);
    expect(await leases.claimLease('a', 60_000)).toBe(true);
    expect(await attempt(second, 'a')).toBeGreaterThan(second);
  },
);

test('a whole listing stores every object the database lost; objects no version names are swept', async () => {
  const site = { 'index.html': 'home', '404.html': 'missing' };
  const id = await (await publisher('a'))(site, { 'manifest.json': '{}' });
  const hashes = [...(await repository.filesAt(id)).values()];
  const [lost] = hashes;
  await database.db.delete(siteObjects).where(eq(siteObjects.hash, lost ?? ''));
  expect(await repository.missingObjects(hashes)).toEqual([lost]);
  // A new publisher (a restart) lists everything: the lost object comes back, no version is added.
  expect(await (await publisher('b'))(site, { 'manifest.json': '{}' })).toBe(id);
  expect(await repository.missingObjects(hashes)).toEqual([]);
  // An object uploaded by a record that failed: named by no row, swept once it is old enough.
  await repository.storeObjects([{ hash: 'orphan', body: Buffer.from('orphan') }]);
  expect(await repository.sweepObjects(60 * 60_000)).toBe(0);
  expect(await repository.sweepObjects(-1_000)).toBe(1);
  expect(await repository.missingObjects(['orphan', ...hashes])).toEqual(['orphan']);
});
