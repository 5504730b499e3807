import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest';
import { pageCount, type CataloguePage } from '../../../../contract/catalogue-pages.ts';
import { ManifestSchema, type Manifest } from '../../../../contract/manifest.ts';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { threads } from '../../../../server/db/schema.ts';
import {
  exportCatalogue,
  type CatalogueExport,
} from '../../../../server/publisher/export/export-catalogue.ts';
import { EXPORT_STATE_FILE } from '../../../../server/publisher/export/export-state.ts';
import { TAIL_MAX } from '../../../../server/publisher/export/follow-changes.ts';
import type { NewThread } from '../../../../server/repositories/threads.ts';
import { TEST_SITE } from '../../../site-under-test.ts';
import { CATALOGUE_NOW as now, insertThreads, threadRows } from '../../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// The tail (decision 037): what the export does with each kind of change after a full export, and
// that a catalogue with a tail reads, list by list, exactly as a full export of the same threads.

let dir: string;
const fresh: string[] = [];

const target = (catalogueDir: string): CatalogueExport => ({
  catalogueDir,
  sampleCatalogueDir: TEST_SITE.catalogueDir,
  refreshIntervalMinutes: 60,
});

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  dir = await mkdtemp(path.join(tmpdir(), 'ct-tail-'));
  await insertThreads(threadRows(200));
  expect(await exportNow()).toBe(true);
});
afterEach(async () => {
  await Promise.all([dir, ...fresh.splice(0)].map((d) => rm(d, { recursive: true, force: true })));
});
afterAll(async () => resetDatabase(await testDatabase()));

async function exportNow(into = dir): Promise<boolean> {
  const { db } = await testDatabase();
  return exportCatalogue(db, target(into), now);
}

const readJson = async (name: string, from = dir) =>
  JSON.parse(await readFile(path.join(from, ...name.split('/')), 'utf8')) as unknown;
const manifestOf = async (from = dir) => ManifestSchema.parse(await readJson('manifest.json', from));

/** Every list's cards as a reader sees them: its pages' cards in order. */
async function lists(from: string, manifest: Manifest): Promise<Map<string, ThreadCard[]>> {
  const keys = [
    ['all', manifest.counts?.all ?? 0],
    ['text', manifest.counts?.text ?? 0],
    ['images', manifest.counts?.images ?? 0],
    ...(manifest.topics ?? []).map((topic): [string, number] => [`topics/${topic.slug}`, topic.count]),
  ] as const;
  const result = new Map<string, ThreadCard[]>();
  for (const [list, total] of keys) {
    const first = (await readJson(`pages/${list}/1.json`, from)) as CataloguePage;
    expect(first.total, list).toBe(total);
    const cards = [...first.cards];
    for (let n = 2; n <= first.pages; n++)
      cards.push(...((await readJson(`pages/${list}/${n}.json`, from)) as CataloguePage).cards);
    expect(cards, list).toHaveLength(total);
    result.set(list, cards);
  }
  return result;
}

/** A full export of the same database into a fresh folder. */
async function fullExport(): Promise<string> {
  const other = await mkdtemp(path.join(tmpdir(), 'ct-tail-full-'));
  fresh.push(other);
  await exportNow(other);
  return other;
}

function newRow(shortcode: string, minutesAgo: number, extra: Partial<NewThread> = {}): NewThread {
  const [row] = threadRows(1);
  if (!row) throw new Error('no row');
  return {
    ...row,
    shortcode,
    permalink: `https://www.threads.com/@kit/post/${shortcode}`,
    postedAt: new Date(now.getTime() - minutesAgo * 60_000),
    ...extra,
  };
}

/** The data files and their bytes (not the export's state). */
async function snapshotFiles(from = dir): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === EXPORT_STATE_FILE || /\.(br|gz)$/.test(entry.name)) continue;
    const name = path.relative(from, path.join(entry.parentPath, entry.name));
    files.set(name, await readFile(path.join(from, name), 'utf8'));
  }
  return files;
}

test('with a tail every list reads as a full export of the same threads; taking it out restores the files', async () => {
  const before = await snapshotFiles();
  const base = await manifestOf();
  await insertThreads([
    newRow('TAILTEXT', 1, { imageUrl: null, topicTag: 'Kerning Only' }),
    newRow('TAILIMAGE', 2, { imageUrl: '/sample/images/2.webp', topicTag: 'Typography' }),
  ]);
  expect(await exportNow()).toBe(true);
  const tailed = await manifestOf();
  expect(tailed.version).toBe(base.version);
  expect(tailed.head).toBeDefined();
  expect(tailed.topics?.find((topic) => topic.slug === 'kerning-only')).toEqual({
    tag: 'Kerning Only',
    slug: 'kerning-only',
    count: 1,
  });

  const other = await fullExport();
  const full = await manifestOf(other);
  expect(full.head).toBeUndefined();
  expect(tailed.counts).toEqual(full.counts);
  expect(tailed.topics).toEqual(full.topics);
  expect(await lists(dir, tailed)).toEqual(await lists(other, full));
  expect(await readJson('threads-recent.json')).toEqual(await readJson('threads-recent.json', other));

  // Unchanged, the next export writes nothing.
  expect(await exportNow()).toBe(false);

  const { db } = await testDatabase();
  // Taken out again (an admin's removal): a change to approved threads is exported in full.
  await db
    .update(threads)
    .set({ status: 'rejected' })
    .where(inArray(threads.shortcode, ['TAILTEXT', 'TAILIMAGE']));
  expect(await exportNow()).toBe(true);
  const after = await snapshotFiles();
  // Byte for byte the full export's files again, but for the manifest's dates.
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  for (const [name, body] of before) if (name !== 'manifest.json') expect(after.get(name), name).toBe(body);
  expect(await manifestOf()).toEqual(base);
});

test('a thread approved deeper in the order, an edit of an exported card or a deletion needs a full export', async () => {
  const { db } = await testDatabase();
  const base = await manifestOf();
  // Older than the newest exported card: its place is among the exported pages.
  await insertThreads([newRow('OLDER', 60 * 24 * 400)]);
  expect(await exportNow()).toBe(true);
  const deeper = await manifestOf();
  expect(deeper.head).toBeUndefined();
  expect(deeper.version).not.toBe(base.version);
  expect(deeper.counts?.all).toBe(201);

  const [exported] = await db.select().from(threads).where(eq(threads.shortcode, 'P0000100'));
  if (!exported) throw new Error('no P0000100');
  // Bookkeeping that no card shows is not a change.
  await db.update(threads).set({ missingSince: now }).where(eq(threads.id, exported.id));
  expect(await exportNow()).toBe(false);

  await db.update(threads).set({ text: 'Edited at the source.' }).where(eq(threads.id, exported.id));
  expect(await exportNow()).toBe(true);
  const edited = await manifestOf();
  expect(edited.version).not.toBe(deeper.version);
  const all = (await readJson('threads-all.json')) as ThreadCard[];
  expect(all.find((card) => card.id === exported.id)?.content).toBe('Edited at the source.');

  // Moved to the top of the order (a time corrected at the source): exported already, never a tail.
  await db
    .update(threads)
    .set({ postedAt: new Date(now.getTime() + 60_000) })
    .where(eq(threads.id, exported.id));
  expect(await exportNow()).toBe(true);
  const moved = await manifestOf();
  expect(moved.head).toBeUndefined();
  expect(moved.counts?.all).toBe(201);
  const top = (await readJson('pages/all/1.json')) as CataloguePage;
  expect(top.cards[0]?.id).toBe(exported.id);
  expect(top.cards.filter((card) => card.id === exported.id)).toHaveLength(1);

  await db.delete(threads).where(eq(threads.id, exported.id));
  expect(await exportNow()).toBe(true);
  expect((await manifestOf()).counts?.all).toBe(200);
  expect(((await readJson('threads-all.json')) as ThreadCard[]).map((card) => card.id)).not.toContain(
    exported.id,
  );
});

test('more approvals than TAIL_MAX at once, or a lost state, make a full export', async () => {
  await insertThreads(Array.from({ length: TAIL_MAX + 1 }, (_, i) => newRow(`MANY${i}`, 1 + i / 100)));
  expect(await exportNow()).toBe(true);
  const many = await manifestOf();
  expect(many.head).toBeUndefined();
  expect(many.counts?.all).toBe(200 + TAIL_MAX + 1);
  expect((await readJson('pages/all/1.json')) as CataloguePage).toMatchObject({
    pages: pageCount(200 + TAIL_MAX + 1),
  });

  await insertThreads([newRow('AFTERLOSS', 0.5)]);
  await rm(path.join(dir, EXPORT_STATE_FILE));
  expect(await exportNow()).toBe(true);
  const full = await manifestOf();
  expect(full.head).toBeUndefined();
  expect(full.counts?.all).toBe(200 + TAIL_MAX + 2);
  expect(((await readJson('threads-all.json')) as ThreadCard[])[0]?.permalink).toMatch(/AFTERLOSS$/);
});

test('another picture origin (API_BASE_URL) exports in full: no row change logs it', async () => {
  const { db } = await testDatabase();
  expect(await exportNow()).toBe(false);
  const elsewhere = { ...target(dir), pictureBaseUrl: 'https://api.example.com' };
  expect(await exportCatalogue(db, elsewhere, now)).toBe(true);
  const withImage = ((await readJson('threads-all.json')) as ThreadCard[]).find((card) => card.image);
  expect(withImage?.image).toMatch(/^https:\/\/api\.example\.com\/api\/media\//);
  expect(await exportCatalogue(db, elsewhere, now)).toBe(false);
});
