import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest';
import { threads } from '../../../../server/db/schema.ts';
import { createObjectStore } from '../../../../server/publisher/distribute/object-store.ts';
import { createVersionRecorder } from '../../../../server/publisher/distribute/record-version.ts';
import { sha256Of } from '../../../../server/publisher/export/atomic-file.ts';
import { versionFiles } from '../../../../server/publisher/distribute/version-files.ts';
import { exportCatalogue } from '../../../../server/publisher/export/export-catalogue.ts';
import { WriteJournal } from '../../../../server/publisher/export/write-journal.ts';
import type { NewThread } from '../../../../server/repositories/threads.ts';
import { createSiteVersionsRepository } from '../../../../server/repositories/site-versions.ts';
import { TEST_SITE } from '../../../site-under-test.ts';
import { CATALOGUE_NOW as now, insertThreads, threadRows } from '../../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Decision 044: after its first record the publisher reads only what the export's journal noted.
// Each kind of export below must leave a version holding exactly what a full listing finds.

const database = await testDatabase();
const repository = createSiteVersionsRepository(database.db);
let root: string;
let journal: WriteJournal;

beforeEach(async () => {
  await resetDatabase(database);
  root = await mkdtemp(path.join(tmpdir(), 'ct-journal-'));
  journal = new WriteJournal(path.join(root, 'data'));
});
afterEach(async () => {
  journal.close();
  await rm(root, { recursive: true, force: true });
});
afterAll(() => resetDatabase(database));

/** Every file a full listing finds in the folders, with its hash: what the version must hold. */
async function listed(siteDir: string, catalogueDir: string): Promise<Map<string, string>> {
  const [site, data] = await versionFiles(siteDir, catalogueDir);
  const files = new Map<string, string>();
  for (const { key, file } of [...site, ...data]) files.set(key, await sha256Of(file));
  return files;
}

function row(shortcode: string, minutesAgo: number, extra: Partial<NewThread> = {}): NewThread {
  const [first] = threadRows(1);
  if (!first) throw new Error('no row');
  return {
    ...first,
    shortcode,
    permalink: `https://www.threads.com/@kit/post/${shortcode}`,
    postedAt: new Date(now.getTime() - minutesAgo * 60_000),
    ...extra,
  };
}

test('after tails, full exports, a removed topic and a site rebuild, each version is what a full listing finds', async () => {
  const siteDir = path.join(root, 'site');
  const catalogueDir = path.join(root, 'data');
  await mkdir(siteDir, { recursive: true });
  await writeFile(path.join(siteDir, 'index.html'), '<h1>home</h1>');
  await writeFile(path.join(siteDir, '404.html'), 'missing');
  const recorder = createVersionRecorder({
    repository,
    objects: createObjectStore(path.join(root, 'objects')),
    instanceId: 'a',
    leadMs: 0,
    journal,
  });
  const exportNow = () =>
    exportCatalogue(
      database.db,
      { catalogueDir, sampleCatalogueDir: TEST_SITE.catalogueDir, refreshIntervalMinutes: 60 },
      now,
    );
  const recordAndCompare = async (step: string) => {
    const id = await recorder.record({ siteDir, catalogueDir, catalogueVersion: null });
    const held = await repository.filesAt(id);
    expect(new Map([...held].sort()), step).toEqual(
      new Map([...(await listed(siteDir, catalogueDir))].sort()),
    );
    expect((await repository.find(id))?.fileCount, step).toBe(held.size);
    return id;
  };

  // The sample stands in while nothing is approved; then the first approvals replace it.
  await exportNow();
  const first = await recordAndCompare('the sample');
  await insertThreads(threadRows(120));
  await exportNow();
  const full = await recordAndCompare('a full export replacing the sample');
  expect(full).toBeGreaterThan(first);

  // An approval newer than every card: the tail (decision 037) writes a few files.
  await insertThreads([row('TAIL1', 1, { topicTag: 'Kerning Only' })]);
  await exportNow();
  const tail = await recordAndCompare('a tail');
  expect((await repository.find(tail))?.changedCount).toBeLessThan(40);

  // The tail's thread taken out: a full export, and the topic it alone had goes with its folder.
  await database.db.update(threads).set({ status: 'rejected' }).where(eq(threads.shortcode, 'TAIL1'));
  await exportNow();
  const removed = await recordAndCompare('a removed topic');
  expect([...(await repository.filesAt(removed)).keys()].some((key) => key.includes('kerning-only'))).toBe(
    false,
  );

  // Fewer threads: pages past a list's end go; the site is rebuilt with another page.
  const gone = threadRows(120)
    .slice(0, 60)
    .map((r) => r.shortcode);
  await database.db.delete(threads).where(inArray(threads.shortcode, gone));
  await exportNow();
  await writeFile(path.join(siteDir, 'about.html'), 'about');
  await recordAndCompare('fewer pages and a new site page');

  // Nothing changed: no new version.
  const again = await recordAndCompare('nothing new');
  expect(await recorder.record({ siteDir, catalogueDir, catalogueVersion: null })).toBe(again);
});

test('a record after another publisher recorded lists everything again; a journal outside its folder notes nothing', async () => {
  const siteDir = path.join(root, 'site');
  const catalogueDir = path.join(root, 'data');
  await mkdir(siteDir, { recursive: true });
  await writeFile(path.join(siteDir, '404.html'), 'missing');
  await mkdir(catalogueDir, { recursive: true });
  const recorder = (instanceId: string) =>
    createVersionRecorder({
      repository,
      objects: createObjectStore(path.join(root, `objects-${instanceId}`)),
      instanceId,
      leadMs: 0,
      journal,
    });
  const [a, b] = [recorder('a'), recorder('b')];
  await writeFile(path.join(catalogueDir, 'manifest.json'), '{"v":1}');
  await a.record({ siteDir, catalogueDir, catalogueVersion: null });
  // Written behind the journal's back (not by the export) while b publishes: a must not trust its journal.
  await writeFile(path.join(catalogueDir, 'threads-all.json'), '[]');
  await b.record({ siteDir, catalogueDir, catalogueVersion: null });
  await writeFile(path.join(catalogueDir, 'threads-text.json'), '[]');
  const id = await a.record({ siteDir, catalogueDir, catalogueVersion: null });
  expect([...(await repository.filesAt(id)).keys()].sort()).toEqual([
    'data/manifest.json',
    'data/threads-all.json',
    'data/threads-text.json',
    'site/404.html',
  ]);
  const elsewhere = new WriteJournal(path.join(root, 'other'));
  await exportCatalogue(
    database.db,
    { catalogueDir, sampleCatalogueDir: TEST_SITE.catalogueDir, refreshIntervalMinutes: 60 },
    now,
  );
  expect(elsewhere.take().files.size).toBe(0);
  expect(journal.take().files.size).toBeGreaterThan(0);
  elsewhere.close();
});
