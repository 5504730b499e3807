import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CataloguePage } from '../../contract/catalogue-pages.ts';
import { ManifestSchema } from '../../contract/manifest.ts';
import { exportCatalogue } from '../../server/publisher/export/export-catalogue.ts';
import { TEST_SITE } from '../site-under-test.ts';
import { CATALOGUE_NOW, insertThreads, threadRows } from '../integration/helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../integration/helpers/database.ts';

// The export follows changes by snapshot (decision 037): an approval whose transaction is still open
// while a full export reads, and commits after it, is not lost, whatever order the transactions took
// their log sequence numbers in.
const databaseUrl = process.env.DATABASE_URL ?? '';
let dir: string;
const other = new pg.Client({ connectionString: databaseUrl });

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  dir = await mkdtemp(path.join(tmpdir(), 'ct-snapshot-'));
  await other.connect();
});
afterAll(async () => {
  await other.end();
  await rm(dir, { recursive: true, force: true });
  await resetDatabase(await testDatabase());
});

test('an approval committed after a full export began reading is laid in front of it by the next export', async () => {
  const { db } = await testDatabase();
  const rows = threadRows(30);
  const [late, quick] = rows;
  if (!late || !quick) throw new Error('no rows');
  await insertThreads([{ ...late, status: 'pending' }, ...rows.slice(2)]);
  const target = {
    catalogueDir: dir,
    sampleCatalogueDir: TEST_SITE.catalogueDir,
    refreshIntervalMinutes: 60,
  };
  const manifest = async () =>
    ManifestSchema.parse(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')));

  // Another session approves the newest thread, logging it first (the lower sequence number)...
  await other.query('begin');
  await other.query(`update threads set status = 'approved' where shortcode = $1`, [late.shortcode]);
  // ...an approval after it commits first (a higher one)...
  await insertThreads([quick]);
  // ...and a full export reads without seeing the open one.
  expect(await exportCatalogue(db, target, CATALOGUE_NOW)).toBe(true);
  expect((await manifest()).counts?.all).toBe(29);
  await other.query('commit');

  // The next export follows it: the snapshot, not the highest number seen, tells what was missed.
  expect(await exportCatalogue(db, target, CATALOGUE_NOW)).toBe(true);
  const after = await manifest();
  expect(after.counts?.all).toBe(30);
  expect(after.head).toBeDefined();
  const first = JSON.parse(await readFile(path.join(dir, 'pages/all/1.json'), 'utf8')) as CataloguePage;
  expect(first.tail).toBe(1);
  expect(first.cards.slice(0, 2).map((card) => card.permalink)).toEqual([late.permalink, quick.permalink]);
});
