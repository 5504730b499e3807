import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  CatalogueSourceError,
  prepareCatalogue,
} from '../../../../../server/publisher/build/host/catalogue-source.ts';
import { startApp } from '../../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../../helpers/database.ts';

// CATALOGUE_URL against the real server: what `npm run build` writes from a running server's /data is
// the catalogue that server serves, version included.

let app: FastifyInstance;
let origin: string;
beforeAll(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base: origin } = await startApp());
});
afterAll(() => app.close());

const settings = async (catalogueUrl: string) => ({
  catalogueDir: path.join(await mkdtemp(path.join(tmpdir(), 'ct-download-')), 'catalogue'),
  sampleCatalogueDir: '/nonexistent',
  refreshIntervalMinutes: 60,
  catalogueUrl,
  catalogueDirGiven: false,
});

test("a running server's /data is written whole, with the server's version and files", async () => {
  const target = await settings(`${origin}/data`);
  await prepareCatalogue(target, { log: () => {} });
  const served = (await app.inject({ url: '/data/manifest.json' })).json<{
    version: string;
    generatedAt: string;
  }>();
  const written = JSON.parse(
    await readFile(path.join(target.catalogueDir, 'manifest.json'), 'utf8'),
  ) as typeof served;
  expect(written).toEqual(served);
  for (const file of ['pages/all/1.json', 'search/index.json', 'threads-text.json']) {
    expect(await readFile(path.join(target.catalogueDir, file), 'utf8'), file).toBe(
      (await app.inject({ url: `/data/${file}` })).body,
    );
  }
});

test('a URL that is not a catalogue folder names its status', async () => {
  await expect(prepareCatalogue(await settings(`${origin}/nothing`), { log: () => {} })).rejects.toThrow(
    new CatalogueSourceError(
      `${origin}/nothing/manifest.json answered 404 Not Found: CATALOGUE_URL must be a server's public catalogue folder (the one holding manifest.json, e.g. https://example.com/data).`,
    ),
  );
});
