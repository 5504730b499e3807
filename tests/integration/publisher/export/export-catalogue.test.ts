import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CATALOGUE_PAGE_SIZE, type CataloguePage } from '../../../../contract/catalogue-pages.ts';
import { ManifestSchema } from '../../../../contract/manifest.ts';
import type { CurationRunSummary } from '../../../../contract/review.ts';
import { ThreadCardListSchema } from '../../../../contract/thread-card.ts';
import { RECENT_COUNT } from '../../../../server/publisher/export/catalogue-files.ts';
import {
  exportCatalogue,
  type CatalogueExport,
} from '../../../../server/publisher/export/export-catalogue.ts';
import { TEST_SITE } from '../../../site-under-test.ts';
import { api, signInCurator, startApp } from '../../auth/helpers.ts';
import { TEST_CATALOGUE_DIR } from '../../helpers/app.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';
import { pendingPage } from '../../helpers/review-queue.ts';

// The public catalogue comes from the approved threads; the committed sample stands in while there
// are none. Runs on the worker's database with the simulated provider over HTTP.
let app: FastifyInstance;
let base: string;
let admin: string;
let target: CatalogueExport;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' }));
  admin = await signInCurator(base);
  target = {
    catalogueDir: await mkdtemp(path.join(tmpdir(), 'ct-export-')),
    sampleCatalogueDir: TEST_SITE.catalogueDir,
    refreshIntervalMinutes: 60,
  };
});
afterEach(() => app.close());

const read = async (dir: string, name: string) => readFile(path.join(dir, name), 'utf8');

test('without approved threads the cards and dates of the sample are published, with pages; again changes nothing', async () => {
  const { db } = await testDatabase();
  expect(await exportCatalogue(db, target)).toBe(true);
  const sampleCards = ThreadCardListSchema.parse(
    JSON.parse(await read(TEST_SITE.catalogueDir, 'threads-all.json')),
  );
  const sampleManifest = ManifestSchema.parse(
    JSON.parse(await read(TEST_SITE.catalogueDir, 'manifest.json')),
  );
  expect(sampleCards.length).toBeGreaterThan(CATALOGUE_PAGE_SIZE);

  const all = ThreadCardListSchema.parse(JSON.parse(await read(target.catalogueDir, 'threads-all.json')));
  expect(all).toEqual(sampleCards);
  const recent = ThreadCardListSchema.parse(
    JSON.parse(await read(target.catalogueDir, 'threads-recent.json')),
  );
  expect(recent).toHaveLength(Math.min(RECENT_COUNT, sampleCards.length));
  const manifest = ManifestSchema.parse(JSON.parse(await read(target.catalogueDir, 'manifest.json')));
  expect(manifest).toMatchObject({
    generatedAt: sampleManifest.generatedAt,
    nextUpdate: sampleManifest.nextUpdate,
    counts: { all: sampleCards.length },
    pageSize: CATALOGUE_PAGE_SIZE,
  });
  expect(manifest.version).toMatch(/^[0-9a-f]+$/);

  // The pages are derived from the sample's cards.
  const first = JSON.parse(await read(target.catalogueDir, 'pages/all/1.json')) as CataloguePage;
  expect(first).toMatchObject({ version: manifest.version, list: 'all', page: 1, total: sampleCards.length });
  expect(first.cards).toEqual(sampleCards.slice(0, CATALOGUE_PAGE_SIZE));
  const topic = manifest.topics?.[0];
  if (!topic) throw new Error('the sample has no topics');
  const topicPage = JSON.parse(
    await read(target.catalogueDir, `pages/topics/${topic.slug}/1.json`),
  ) as CataloguePage;
  expect(topicPage.total).toBe(topic.count);

  expect(await exportCatalogue(db, target)).toBe(false);
});

test('a sample without a manifest is dated from now; without a sample the catalogue is empty', async () => {
  const { db } = await testDatabase();
  const sampleDir = await mkdtemp(path.join(tmpdir(), 'ct-sample-'));
  await writeFile(
    path.join(sampleDir, 'threads-all.json'),
    await read(TEST_SITE.catalogueDir, 'threads-all.json'),
  );
  const now = new Date('2026-11-21T10:00:00.000Z');
  expect(await exportCatalogue(db, { ...target, sampleCatalogueDir: sampleDir }, now)).toBe(true);
  const manifest = ManifestSchema.parse(JSON.parse(await read(target.catalogueDir, 'manifest.json')));
  expect(manifest.generatedAt).toBe(now.toISOString());
  expect(manifest.nextUpdate).toBe('2026-11-21T11:00:00.000Z');
  expect(manifest.counts?.all).toBeGreaterThan(0);

  const empty = { ...target, sampleCatalogueDir: path.join(sampleDir, 'missing') };
  expect(await exportCatalogue(db, empty, now)).toBe(true);
  expect(JSON.parse(await read(target.catalogueDir, 'threads-all.json'))).toEqual([]);
  expect(ManifestSchema.parse(JSON.parse(await read(target.catalogueDir, 'manifest.json'))).counts).toEqual({
    all: 0,
    text: 0,
    images: 0,
  });
  // The sample's topic pages are gone with it.
  const left = await readdir(path.join(target.catalogueDir, 'pages'), {
    recursive: true,
    withFileTypes: true,
  });
  expect(
    left
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(target.catalogueDir, path.join(entry.parentPath, entry.name)))
      .sort(),
  ).toEqual(['pages/all/1.json', 'pages/images/1.json', 'pages/text/1.json']);
});

test('approved threads replace the sample, dated by the last curation run; pending ones stay out', async () => {
  const { db } = await testDatabase();
  const refreshed = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  const { run } = (await refreshed.json()) as { run: CurationRunSummary };
  const queue = (await pendingPage(base, admin)).threads;
  const [first, second] = queue;
  if (!first || !second) throw new Error('the search found too little');
  for (const thread of [first, second]) {
    await api(base, '/api/threads/approve', {
      method: 'POST',
      cookie: admin,
      body: { thread_id: thread.id },
    });
  }

  expect(await exportCatalogue(db, target)).toBe(true);
  const all = ThreadCardListSchema.parse(JSON.parse(await read(target.catalogueDir, 'threads-all.json')));
  expect(all.map((card) => card.permalink).sort()).toEqual([first.permalink, second.permalink].sort());
  expect(all.find((card) => card.id === first.id)).toMatchObject({
    handle: first.handle,
    content: first.content,
    image: first.image,
  });
  const manifest = ManifestSchema.parse(JSON.parse(await read(target.catalogueDir, 'manifest.json')));
  expect(manifest.generatedAt).toBe(run.finished_at);
  expect(Date.parse(manifest.nextUpdate) - Date.parse(manifest.generatedAt)).toBe(60 * 60_000);
  expect(manifest.counts?.all).toBe(2);
  // The pages hold the approved threads only: the sample's topics and pages are gone.
  const firstPage = JSON.parse(await read(target.catalogueDir, 'pages/all/1.json')) as CataloguePage;
  expect(firstPage).toMatchObject({ version: manifest.version, pages: 1, total: 2 });
  expect(firstPage.cards).toEqual(all);
  expect(manifest.topics?.reduce((sum, topic) => sum + topic.count, 0) ?? 0).toBeLessThanOrEqual(2);
  // Nothing new: no data file changes, so no rebuild follows.
  expect(await exportCatalogue(db, target)).toBe(false);
});

test('the server serves the catalogue it exported, and a reload picks up a new export', async () => {
  const { db } = await testDatabase();
  const sample = ThreadCardListSchema.parse(
    JSON.parse(await read(TEST_SITE.catalogueDir, 'threads-all.json')),
  );
  const before = await app.inject({ url: '/data/threads-all.json' });
  expect(ThreadCardListSchema.parse(before.json()).map((card) => card.id)).toEqual(
    sample.map((card) => card.id),
  );

  await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  const queue = (await pendingPage(base, admin)).threads;
  const chosen = queue[0];
  if (!chosen) throw new Error('the search found nothing');
  await api(base, '/api/threads/approve', { method: 'POST', cookie: admin, body: { thread_id: chosen.id } });
  await exportCatalogue(db, {
    catalogueDir: TEST_CATALOGUE_DIR,
    sampleCatalogueDir: TEST_SITE.catalogueDir,
    refreshIntervalMinutes: 60,
  });
  await app.publisher.reloadCatalogue();
  const after = await app.inject({ url: '/data/threads-all.json' });
  expect(ThreadCardListSchema.parse(after.json()).map((card) => card.id)).toEqual([chosen.id]);
  const page = await app.inject({ url: '/data/pages/all/1.json' });
  expect(page.statusCode).toBe(200);
  expect((page.json() as CataloguePage).cards.map((card) => card.id)).toEqual([chosen.id]);
});
