import { cp, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import {
  buildSite,
  staleReason,
  type SiteBuildOptions,
} from '../../../../server/publisher/build/build-site.ts';
import { PROJECT_ROOT, stagingFolderFor } from '../../../../server/publisher/build/staging.ts';
import { TEST_SITE } from '../../../site-under-test.ts';

// One real Astro build into a temporary folder outside the project (SITE_DIR anywhere: the build is
// staged inside the project, then moved), on a private copy of the catalogue.
test('the stale check notices edits and deletions; a failed build keeps the last good site', async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'ct-build-'));
  const options: SiteBuildOptions = {
    ...TEST_SITE,
    // Its parent does not exist yet.
    siteDir: path.join(work, 'hosted', 'site'),
    catalogueDir: path.join(work, 'catalogue'),
  };
  expect(path.relative(PROJECT_ROOT, options.siteDir).startsWith('..')).toBe(true);
  /** Beside the site: the site and its nginx block, no staging or retired folder left behind. */
  const besideSite = async () => (await readdir(path.dirname(options.siteDir))).toSorted();
  /** The site's staging folder in the project: removed after each build. */
  const staged = async () => readdir(stagingFolderFor(options.siteDir)).catch(() => 'removed');
  await cp(TEST_SITE.catalogueDir, options.catalogueDir, { recursive: true });
  expect(await staleReason(options)).toBe('no built site yet');

  // API_BASE_URL comes from the options alone: one in the server's environment is not baked in.
  process.env.API_BASE_URL = 'http://127.0.0.1:4398';
  try {
    await buildSite(options, { capture: true });
  } finally {
    delete process.env.API_BASE_URL;
  }
  expect(await staleReason(options)).toBeNull();
  expect(await besideSite()).toEqual(['site', 'site.nginx.conf']);
  expect(await staged()).toBe('removed');
  const builtHome = await readFile(path.join(options.siteDir, 'index.html'), 'utf8');
  expect(builtHome).toContain('Design threads');
  const built = (await readdir(options.siteDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.(html|js)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const leaked = [];
  for (const file of built) if ((await readFile(file, 'utf8')).includes('127.0.0.1:4398')) leaked.push(file);
  expect(leaked).toEqual([]);

  // A file removed from the inputs makes the site stale, although no remaining file got newer.
  const recent = path.join(options.catalogueDir, 'threads-recent.json');
  const recentBody = await readFile(recent);
  await rm(recent);
  expect(await staleReason(options)).toBe('its sources, data or settings changed');
  // Data is compared by content: the same bytes back (even with an old mtime) match the build...
  await writeFile(recent, recentBody);
  const past = new Date('2020-01-01T00:00:00Z');
  await utimes(recent, past, past);
  expect(await staleReason(options)).toBeNull();
  // ...and one changed byte does not, although the size and the mtime stay the same.
  const changed = Buffer.from(recentBody);
  changed[changed.length - 2] = changed[changed.length - 2] === 0x20 ? 0x0a : 0x20;
  await writeFile(recent, changed);
  await utimes(recent, past, past);
  expect(await staleReason(options)).toBe('its sources, data or settings changed');
  await writeFile(recent, recentBody);

  expect(await staleReason(options)).toBeNull();

  expect(await staleReason({ ...options, contactEmail: 'other@curated-threads.test' })).toBe(
    'its sources, data or settings changed',
  );
  // Another API origin is another site: its pages call elsewhere and allow it in their CSP.
  expect(await staleReason({ ...options, apiBaseUrl: 'http://127.0.0.1:4399' })).toBe(
    'its sources, data or settings changed',
  );

  // A catalogue the build cannot read fails the build; the previous site stays in place.
  await writeFile(path.join(options.catalogueDir, 'threads-all.json'), '{"not": "a list"}');
  const failure = buildSite(options, { capture: true });
  await expect(failure).rejects.toThrow('The site build failed');
  await expect(failure).rejects.toThrow('threads-all.json must hold a list of thread cards');
  expect(await readFile(path.join(options.siteDir, 'index.html'), 'utf8')).toBe(builtHome);
  expect(await besideSite()).toEqual(['site', 'site.nginx.conf']);
  expect(await staged()).toBe('removed');
  await rm(work, { recursive: true, force: true });
  await rm(stagingFolderFor(options.siteDir), { recursive: true, force: true });
});
