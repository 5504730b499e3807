import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ManifestSchema } from '../../../contract/manifest.ts';
import type { CurationRunSummary, ReviewThread } from '../../../contract/review.ts';
import { ThreadCardListSchema } from '../../../contract/thread-card.ts';
import { exportCatalogue, type CatalogueExport } from '../../../server/jobs/export-catalogue.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { api, signIn, startApp } from '../auth/helpers.ts';
import { TEST_CATALOGUE_DIR } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The public catalogue comes from the approved threads; the committed sample stands in while there
// are none. Runs on the worker's database with the simulated provider over HTTP.
let app: FastifyInstance;
let base: string;
let admin: string;
let target: CatalogueExport;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' }));
  admin = await signIn(base, 'admin');
  target = {
    catalogueDir: await mkdtemp(path.join(tmpdir(), 'ct-export-')),
    sampleCatalogueDir: TEST_SITE.catalogueDir,
    refreshIntervalMinutes: 60,
  };
});
afterEach(() => app.close());

const read = async (dir: string, name: string) => readFile(path.join(dir, name), 'utf8');

test('without approved threads the sample is published unchanged; exporting it again changes nothing', async () => {
  const { db } = await testDatabase();
  expect(await exportCatalogue(db, target)).toBe(true);
  for (const name of ['threads-all.json', 'threads-recent.json', 'manifest.json']) {
    expect(await read(target.catalogueDir, name)).toBe(await read(TEST_SITE.catalogueDir, name));
  }
  expect(await exportCatalogue(db, target)).toBe(false);
});

test('approved threads replace the sample, dated by the last curation run; pending ones stay out', async () => {
  const { db } = await testDatabase();
  const refreshed = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  const { run } = (await refreshed.json()) as { run: CurationRunSummary };
  const queue = (
    (await (await api(base, '/api/threads/pending-review', { cookie: admin })).json()) as {
      threads: ReviewThread[];
    }
  ).threads;
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
  const queue = (
    (await (await api(base, '/api/threads/pending-review', { cookie: admin })).json()) as {
      threads: ReviewThread[];
    }
  ).threads;
  const chosen = queue[0];
  if (!chosen) throw new Error('the search found nothing');
  await api(base, '/api/threads/approve', { method: 'POST', cookie: admin, body: { thread_id: chosen.id } });
  await exportCatalogue(db, {
    catalogueDir: TEST_CATALOGUE_DIR,
    sampleCatalogueDir: TEST_SITE.catalogueDir,
    refreshIntervalMinutes: 60,
  });
  await app.reloadCatalogue();
  const after = await app.inject({ url: '/data/threads-all.json' });
  expect(ThreadCardListSchema.parse(after.json()).map((card) => card.id)).toEqual([chosen.id]);
});
