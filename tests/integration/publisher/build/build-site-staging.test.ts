import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { moveIntoPlace, PROJECT_ROOT, stagingDirFor } from '../../../../server/publisher/build/staging.ts';

// Astro imports the server chunks it writes inside its outDir, so their packages must resolve from
// there: builds are staged inside the project whatever SITE_DIR is, then moved into place.

test('a build is staged inside the project, wherever SITE_DIR is', () => {
  const anywhere = [
    '/tmp/x/dist',
    '/srv/www/curated/dist',
    // A sibling whose path starts with the project's (Astro took it for "inside" and failed).
    `${PROJECT_ROOT}-sites/dist`,
    path.join(PROJECT_ROOT, 'dist'),
  ];
  const staged = anywhere.map((siteDir) => stagingDirFor(siteDir, '0a1b2c3d'));
  for (const staging of staged) {
    expect(path.relative(PROJECT_ROOT, staging).startsWith('..')).toBe(false);
    expect(path.basename(staging)).toBe('build-0a1b2c3d');
  }
  // One folder per SITE_DIR: one site's cleanup never touches another's build.
  expect(new Set(staged.map((staging) => path.dirname(staging))).size).toBe(anywhere.length);
});

/** A folder on another filesystem than the project's when this machine has one (a tmpfs), else tmpdir. */
async function elsewhere(): Promise<string> {
  const project = await stat(PROJECT_ROOT);
  const shm = await stat('/dev/shm').catch(() => null);
  const parent = shm?.isDirectory() && shm.dev !== project.dev ? '/dev/shm' : tmpdir();
  return mkdtemp(path.join(parent, 'ct-move-'));
}

async function stagedBuild(siteDir: string, suffix: string, body: string): Promise<string> {
  const staging = stagingDirFor(siteDir, suffix);
  await mkdir(path.join(staging, '_astro'), { recursive: true });
  await writeFile(path.join(staging, 'index.html'), body);
  await writeFile(path.join(staging, '_astro', 'app.js'), `/* ${body} */`);
  return staging;
}

test('a staged build replaces the site in one swap, across filesystems too, and leaves nothing beside it', async () => {
  const work = await elsewhere();
  const siteDir = path.join(work, 'not-yet', 'dist');
  try {
    const first = await stagedBuild(siteDir, '00000001', 'first');
    await moveIntoPlace(first, siteDir, '00000001');
    expect(await readFile(path.join(siteDir, 'index.html'), 'utf8')).toBe('first');

    const second = await stagedBuild(siteDir, '00000002', 'second');
    await moveIntoPlace(second, siteDir, '00000002');
    expect(await readFile(path.join(siteDir, 'index.html'), 'utf8')).toBe('second');
    expect(await readFile(path.join(siteDir, '_astro', 'app.js'), 'utf8')).toBe('/* second */');
    expect(await readdir(path.dirname(siteDir))).toEqual(['dist']);
    expect(await readdir(path.dirname(second))).toEqual([]);
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(path.dirname(stagingDirFor(siteDir, '0')), { recursive: true, force: true });
  }
});
