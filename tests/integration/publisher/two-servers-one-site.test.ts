import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { rendererEntry, STAMP_FILE } from '../../../server/publisher/build/site-fingerprint.ts';
import { stagingFolderFor } from '../../../server/publisher/build/staging.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { migratedDataDir } from '../helpers/migrated-data-dir.ts';
import { startServerProcess, waitUntilListening, type ServerProcess } from '../helpers/server-process.ts';

// Decision 064: two servers on one machine with one SITE_DIR (several instances, or a restart that
// overlaps the old process) take turns under the folder's lock. Before it, each removed the other's
// build as a leftover at start, or the renderer it was rendering with, and one of them exited.
const BUILDING = 'Building the site (its sources or settings changed)';

async function body(server: ServerProcess, pathname: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${pathname}`);
  return { status: response.status, text: await response.text() };
}

test(
  'two servers started at once on one site folder both start and serve; one builds, the other waits for it',
  { timeout: 300_000 },
  async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'ct-two-servers-'));
    const siteDir = path.join(work, 'site');
    await cp(TEST_SITE.siteDir, siteDir, { recursive: true });
    // Its stamp says the code changed: each server must build the site before it listens. Both
    // parts: a stamp whose whole fingerprint still matched the servers' code and data (the same
    // sample exported the same way) was rightly up to date, and neither built (CI).
    const stampFile = path.join(siteDir, STAMP_FILE);
    const stale = { ...JSON.parse(await readFile(stampFile, 'utf8')), code: 'stale', fingerprint: 'stale' };
    await writeFile(stampFile, JSON.stringify(stale));
    const dataDirs = [await migratedDataDir('ct-two-a-'), await migratedDataDir('ct-two-b-')];
    const env = { SITE_DIR: siteDir, DATABASE_URL: '', LOG_LEVEL: 'info' };
    const servers = await Promise.all(dataDirs.map((DATA_DIR) => startServerProcess({ ...env, DATA_DIR })));
    try {
      await Promise.all(servers.map((server) => waitUntilListening(server, 240_000)));
      const outputs = servers.map((server) => server.output());
      for (const output of outputs) expect(output).not.toMatch(/ENOENT|ENOTEMPTY|ERR_MODULE_NOT_FOUND/);
      // One built; the other found the site built from the same inputs when its turn came.
      expect(outputs.map((output) => output.split(BUILDING).length - 1).toSorted()).toEqual([0, 1]);

      // The build in place is whole: its renderer is there, and nothing else was left behind.
      const stamp = JSON.parse(await readFile(stampFile, 'utf8')) as { code: string; renderer: string };
      expect(stamp.code).not.toBe('stale');
      expect(existsSync(rendererEntry(stamp.renderer))).toBe(true);
      expect(await readdir(stagingFolderFor(siteDir))).toEqual([path.basename(stamp.renderer)]);
      expect((await readdir(work)).toSorted()).toEqual(['site', 'site.nginx.conf']);

      // Both serve the site and their catalogue (each its own export of the sample: the same one).
      const versions: string[] = [];
      for (const server of servers) {
        expect((await body(server, '/')).status).toBe(200);
        const manifest = await body(server, '/data/manifest.json');
        expect(manifest.status).toBe(200);
        versions.push((JSON.parse(manifest.text) as { version: string }).version);
        expect((await body(server, '/data/pages/all/1.json')).status).toBe(200);
      }
      expect(versions[0]).toBe(versions[1]);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
      await rm(stagingFolderFor(siteDir), { recursive: true, force: true });
      for (const dir of [work, ...dataDirs]) await rm(dir, { recursive: true, force: true });
    }
  },
);
