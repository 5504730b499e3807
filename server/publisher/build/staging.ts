import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { linkOrCopy } from '../export/atomic-file.ts';
import { filesUnder } from '../export/files-under.ts';

/** The repository root: the site's sources are read relative to it, and the build runs in it. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Where builds are staged, inside the project (node_modules/ is never committed, linted or watched). */
const STAGING_ROOT = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'curated-threads');

/** A finished build copied beside SITE_DIR, or a killed build's leftover: `<SITE_DIR>.building-<hex>`. */
const BESIDE = /^\.(building|old)-[0-9a-f]{8}$/;

/**
 * The folder of SITE_DIR's staged builds: inside the project whatever SITE_DIR is. A trap: Astro
 * writes its server chunks inside the outDir and imports them from there, so their packages
 * (`@oslojs/encoding`...) must resolve from the outDir's location; outside the project they do not
 * (and Astro's own fallback, `.astro/` in the project, is shared by concurrent builds). One folder per
 * SITE_DIR, so cleaning up one site's leftovers never touches another build running on this machine.
 */
export function stagingFolderFor(siteDir: string): string {
  const key = createHash('sha256').update(path.resolve(siteDir)).digest('hex').slice(0, 12);
  return path.join(STAGING_ROOT, `site-${key}`);
}

/** Where one build of SITE_DIR is staged. */
export function stagingDirFor(siteDir: string, suffix: string): string {
  return path.join(stagingFolderFor(siteDir), `build-${suffix}`);
}

/**
 * Where one build's renderer (its server bundle, decision 043) is kept while its site is served:
 * beside the staged builds, inside the project, where the packages it imports by name resolve.
 */
export function rendererDirFor(siteDir: string, suffix: string): string {
  return path.join(stagingFolderFor(siteDir), `renderer-${suffix}`);
}

/**
 * Removes the renderers of SITE_DIR's earlier builds, once a build with `keep` is served; holding
 * SITE_DIR's lock, so no other process is rendering with one of them.
 */
export async function removeOtherRenderers(siteDir: string, keep: string): Promise<void> {
  const staged = stagingFolderFor(siteDir);
  const names = await readdir(staged).catch(() => []);
  for (const name of names.filter((name) => name.startsWith('renderer-')))
    if (path.join(staged, name) !== path.resolve(keep))
      await rm(path.join(staged, name), { recursive: true, force: true });
}

const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT') throw error;
};

/**
 * Moves a finished staged build into SITE_DIR atomically: first beside it (a rename on the same
 * filesystem, else a copy, since a rename cannot cross filesystems), then a rename swap, so a
 * visitor or a host never sees a half-written site. The previous site is removed after the swap.
 */
export async function moveIntoPlace(staging: string, siteDir: string, suffix: string): Promise<void> {
  await mkdir(path.dirname(siteDir), { recursive: true });
  const beside = `${siteDir}.building-${suffix}`;
  const retired = `${siteDir}.old-${suffix}`;
  try {
    await rename(staging, beside).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EXDEV') throw error;
      await cp(staging, beside, { recursive: true });
      await rm(staging, { recursive: true, force: true });
    });
    await rename(siteDir, retired).catch(ignoreMissing);
    await rename(beside, siteDir);
    await rm(retired, { recursive: true, force: true });
  } finally {
    await rm(beside, { recursive: true, force: true });
  }
}

/**
 * Removes what killed builds of SITE_DIR left: its siblings named exactly `<name>.building-<hex>` or
 * `<name>.old-<hex>` (nothing else beside it), and its staged builds and renderers in the project but
 * `keep` (the served site's renderer). Call it only holding SITE_DIR's lock (site-lock.ts): every
 * build, render and swap holds it too, so no live process is writing into one of these folders or
 * rendering with one of these renderers. A folder that will not go (a killed server's `astro build`
 * child may still write into its staged build for a moment) is told to `onStuck` and left for the
 * next cleanup: a leftover never fails a publish. Returns the folders removed.
 */
export async function removeLeftoversExcept(
  siteDir: string,
  keep: string | undefined,
  onStuck: (folder: string, error: Error) => void = () => {},
): Promise<string[]> {
  const resolved = path.resolve(siteDir);
  const parent = path.dirname(resolved);
  const name = path.basename(resolved);
  const siblings = await readdir(parent, { withFileTypes: true }).catch(() => []);
  const leftovers = siblings
    .filter(
      (entry) =>
        entry.isDirectory() && entry.name.startsWith(name) && BESIDE.test(entry.name.slice(name.length)),
    )
    .map((entry) => path.join(parent, entry.name));
  const staged = stagingFolderFor(resolved);
  const builds = await readdir(staged).catch(() => []);
  const kept = keep === undefined ? null : path.resolve(keep);
  for (const build of builds) if (path.join(staged, build) !== kept) leftovers.push(path.join(staged, build));
  const removed: string[] = [];
  for (const folder of leftovers)
    await rm(folder, { recursive: true, force: true, maxRetries: 3, retryDelay: 200 }).then(
      () => removed.push(folder),
      (error: Error) => onStuck(folder, error),
    );
  return removed;
}

/** Files linked at once. */
const LINK_CONCURRENCY = 32;

/**
 * A copy of `from` at `to` made of hard links (copies across filesystems), but the files `skip` names.
 * A link is safe only because nothing writes into a file of a staged site in place: every file a
 * publish writes again must be skipped here, so it is written as a new file.
 */
export async function linkedCopy(
  from: string,
  to: string,
  skip: (relative: string) => boolean,
): Promise<void> {
  const files = (await filesUnder(from, '')).filter((file) => !skip(file));
  const folders = new Set(files.map((file) => path.posix.dirname(file)));
  for (const folder of [...folders].sort()) await mkdir(path.join(to, folder), { recursive: true });
  const linkOne = (file: string) => linkOrCopy(path.join(from, file), path.join(to, file));
  for (let start = 0; start < files.length; start += LINK_CONCURRENCY)
    await Promise.all(files.slice(start, start + LINK_CONCURRENCY).map(linkOne));
}
