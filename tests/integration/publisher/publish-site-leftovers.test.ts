import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { stagingDirFor, stagingFolderFor } from '../../../server/publisher/build/staging.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// A build killed halfway leaves `<SITE_DIR>.building-<hex>` (and maybe `.old-<hex>`) beside the site
// and its staged copy in the project; the server that builds into SITE_DIR removes exactly those with
// its first publish, holding the folder's lock (decision 064; site-lock.test.ts: a live builder's stay).
let work: string;

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  work = await mkdtemp(path.join(tmpdir(), 'ct-leftovers-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function folderWithAFile(folder: string): Promise<void> {
  await mkdir(path.join(folder, '_astro'), { recursive: true });
  await writeFile(path.join(folder, 'index.html'), '<!doctype html><title>half a build</title>');
}

test('leftover build folders of SITE_DIR are removed at start, each logged; nothing else beside it is', async () => {
  const siteDir = path.join(work, 'site');
  // The site under test, up to date for these settings: the start's publish builds nothing.
  await cp(TEST_SITE.siteDir, siteDir, { recursive: true });
  const leftovers = ['site.building-0a1b2c3d', 'site.old-89abcdef'];
  // Names close to the patterns, and another site's leftover: none of them is this site's build.
  const others = [
    'site.building-notes',
    'site.building-0A1B2C3D',
    'site.old-89abcdef0',
    'site-old',
    'other.building-0a1b2c3d',
    'website.building-0a1b2c3d',
  ];
  for (const name of [...leftovers, ...others]) await folderWithAFile(path.join(work, name));
  await writeFile(path.join(work, 'site.nginx.conf'), 'server {}\n');
  const staged = stagingDirFor(siteDir, 'deadbeef');
  await folderWithAFile(staged);
  // Another SITE_DIR's staged build (another server on this machine, maybe building right now).
  const otherStaged = stagingDirFor(path.join(work, 'other'), 'deadbeef');
  await folderWithAFile(otherStaged);

  const logLines: string[] = [];
  const { app } = await startApp(
    {
      SITE_DIR: siteDir,
      CONTACT_EMAIL: TEST_SITE.contactEmail ?? '',
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'info',
    },
    { publishSite: true, logStream: { write: (line) => logLines.push(line) } },
  );
  await app.close();

  // The sample's export differs from the site's data: its pages are rendered (decision 043), no build.
  expect(logLines.join('')).not.toContain('Building the site');
  expect((await readdir(work)).toSorted()).toEqual(['data', 'site', 'site.nginx.conf', ...others].toSorted());
  // Emptied, and removed with the render's staged copy.
  expect(await readdir(stagingFolderFor(siteDir)).catch(() => [])).toEqual([]);
  expect(await readdir(path.dirname(otherStaged))).toEqual([path.basename(otherStaged)]);
  const removed = logLines
    .map((line) => JSON.parse(line) as { msg: string; removed?: string })
    .filter((entry) => entry.msg === 'Removed a folder a stopped build left behind.')
    .map((entry) => entry.removed);
  expect(removed.toSorted()).toEqual([...leftovers.map((name) => path.join(work, name)), staged].toSorted());
  await rm(path.dirname(otherStaged), { recursive: true, force: true });
  await rm(stagingFolderFor(siteDir), { recursive: true, force: true });
});

// The split deployment: the API's server (SERVE_SITE=false) shares the pages' server's SITE_DIR and
// never builds into it, so it must not take that server's build for a leftover; nor may a server
// that serves a site another process builds (the test suites' shared site under test).
test.each([
  ['an API-only server', false, true],
  ['a server that does not publish', true, false],
])('%s removes nothing beside SITE_DIR', async (_, serveSite, publishSite) => {
  const siteDir = path.join(work, 'shared-site');
  const building = `${siteDir}.building-0a1b2c3d`;
  await folderWithAFile(building);
  if (serveSite) await cp(TEST_SITE.siteDir, siteDir, { recursive: true });
  const { app } = await startApp(
    {
      SERVE_SITE: String(serveSite),
      SITE_DIR: siteDir,
      DATA_DIR: path.join(work, `data-${String(serveSite)}`),
    },
    { publishSite },
  );
  await app.close();
  expect(await readdir(building)).toContain('index.html');
});
