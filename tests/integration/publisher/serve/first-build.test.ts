import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, expect, test } from 'vitest';
import { BUILDING_TEXT, mountServedSite } from '../../../../server/publisher/serve/mount.ts';
import { ServedSite } from '../../../../server/publisher/serve/served-site.ts';
import { TEST_SITE } from '../../../site-under-test.ts';
import { api, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// A first start (no site built yet) publishes in the background: on a large catalogue the first
// export and build take minutes, which must neither stop the server starting nor hide the API.
const work = await mkdtemp(path.join(tmpdir(), 'ct-first-build-'));
afterAll(() => rm(work, { recursive: true, force: true }));

test('while the first site is built, pages answer 503 with Retry-After and /data is served; then the site', async () => {
  const siteDir = path.join(work, 'served', 'site');
  const served = await ServedSite.load({
    siteDir,
    catalogueDir: TEST_SITE.catalogueDir,
    secure: false,
    firstBuild: true,
  });
  const app = Fastify({ logger: false });
  mountServedSite(app, served);
  try {
    expect(served.building).toBe(true);
    const building = await app.inject({ url: '/' });
    expect(building.statusCode).toBe(503);
    expect(building.headers['retry-after']).toBe('30');
    expect(building.headers['cache-control']).toBe('no-store');
    expect(building.body).toBe(BUILDING_TEXT);
    expect((await app.inject({ url: '/privacy' })).statusCode).toBe(503);
    expect((await app.inject({ url: '/data/manifest.json' })).statusCode).toBe(200);

    // The build lands and is swapped in: pages, and a 404 page for unknown paths.
    await cp(TEST_SITE.siteDir, siteDir, { recursive: true });
    await served.reloadSite();
    expect(served.building).toBe(false);
    const home = await app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect((await app.inject({ url: '/no-such-page' })).statusCode).toBe(404);
  } finally {
    await app.close();
  }
});

test('a server started without a built site answers its API at once and serves the site it builds', async () => {
  await resetDatabase(await testDatabase());
  const { app, base } = await startApp(
    { SITE_DIR: path.join(work, 'app', 'site'), DATA_DIR: path.join(work, 'app', 'data') },
    { publishSite: true },
  );
  try {
    expect((await api(base, '/api/health')).status).toBe(200);
    await app.publisher.settled();
    expect(app.publisher.served.building).toBe(false);
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<html');
  } finally {
    await app.close();
  }
});
