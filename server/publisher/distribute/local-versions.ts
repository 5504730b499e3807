import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SiteVersion, SiteVersionsRepository } from '../../repositories/site-versions.ts';
import { linkOrCopy } from '../export/atomic-file.ts';
import type { ObjectStore } from './object-store.ts';

const DOWNLOAD_BATCH = 200;

/** Where a version is assembled: its site and its catalogue, as the served site reads them. */
export interface VersionFolders {
  siteDir: string;
  catalogueDir: string;
}

function foldersOf(root: string): VersionFolders {
  return { siteDir: path.join(root, 'site'), catalogueDir: path.join(root, 'data') };
}

/** Fetches the objects of `hashes` this instance does not hold yet. */
async function download(repository: SiteVersionsRepository, objects: ObjectStore, hashes: string[]) {
  const missing: string[] = [];
  for (const hash of hashes) if (!(await objects.has(hash))) missing.push(hash);
  for (let start = 0; start < missing.length; start += DOWNLOAD_BATCH) {
    const wanted = missing.slice(start, start + DOWNLOAD_BATCH);
    const found = await repository.readObjects(wanted);
    if (found.length !== wanted.length)
      throw new Error(
        'A file of the published version is missing from the database; waiting for a newer one.',
      );
    for (const { hash, body } of found) await objects.put(hash, body);
  }
}

/**
 * The folders of `version` under `publishedDir`, assembled once from the object store (hard links)
 * after every missing object is downloaded; the folder appears whole (built aside, then renamed).
 */
export async function assembleVersion(
  version: SiteVersion,
  {
    repository,
    objects,
    publishedDir,
  }: { repository: SiteVersionsRepository; objects: ObjectStore; publishedDir: string },
): Promise<VersionFolders> {
  const root = path.join(publishedDir, `v${version.id}`);
  if (
    await stat(root).then(
      () => true,
      () => false,
    )
  )
    return foldersOf(root);
  await download(repository, objects, [...new Set(Object.values(version.files))]);
  const staging = `${root}.assembling-${randomBytes(4).toString('hex')}`;
  try {
    for (const [key, hash] of Object.entries(version.files)) {
      const target = path.join(staging, ...key.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await linkOrCopy(objects.fileOf(hash), target);
    }
    // An empty catalogue still has its folders: the served site reads both.
    await mkdir(path.join(staging, 'site'), { recursive: true });
    await mkdir(path.join(staging, 'data'), { recursive: true });
    await rename(staging, root);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return foldersOf(root);
}

/**
 * Removes assembled versions older than the newest `keep` ids in `keepIds`, and leftovers of an
 * assembly cut short. Objects stay: the next versions mostly share them.
 */
export async function removeOldVersions(publishedDir: string, keepIds: readonly number[]): Promise<void> {
  const keep = new Set(keepIds.map((id) => `v${id}`));
  for (const name of await readdir(publishedDir).catch(() => [] as string[])) {
    if (!/^v\d+(\.assembling-[0-9a-f]+)?$/.test(name) || keep.has(name)) continue;
    await rm(path.join(publishedDir, name), { recursive: true, force: true });
  }
}
