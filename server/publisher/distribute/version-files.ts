import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isSiteFile, isSiteFolder } from '../../http/site-files.ts';
import { PUBLIC_CATALOGUE_FILE } from '../export/catalogue-files.ts';
import { visibleFilesUnder } from '../export/files-under.ts';

/** A file of a version: its key (`site/...` or `data/...`, `/` separators) and where it lies now. */
export interface VersionFile {
  key: string;
  file: string;
}

/** Precompressed copies travel with the file they belong to. */
function baseName(relative: string): string {
  return relative.replace(/\.(br|gz)$/, '');
}

async function filesIn(
  dir: string,
  prefix: string,
  include: (relative: string) => boolean,
  skipFolder?: (relativeFolder: string) => boolean,
): Promise<VersionFile[]> {
  return (await visibleFilesUnder(dir, skipFolder))
    .filter(include)
    .map((relative) => ({ key: `${prefix}/${relative}`, file: path.join(dir, ...relative.split('/')) }));
}

/**
 * Every file one version is served from: the site's pages and assets (with the build's .br/.gz
 * copies) and the public catalogue files (with theirs).
 */
export async function versionFiles(siteDir: string, catalogueDir: string): Promise<VersionFile[]> {
  const [site, data] = await Promise.all([
    // Never listing the site's copy of the catalogue (data/ is served from the catalogue folder).
    filesIn(
      siteDir,
      'site',
      (relative) => isSiteFile(baseName(relative)),
      (folder) => !isSiteFolder(folder),
    ),
    filesIn(catalogueDir, 'data', (relative) => PUBLIC_CATALOGUE_FILE.test(baseName(relative))),
  ]);
  return [...site, ...data].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Content hashes of files, remembered by path, size and modification time: the export and the
 * build replace a changed file (a new inode, a new mtime), so an unchanged one is not read again.
 */
export function createHashCache() {
  const known = new Map<string, { size: number; mtimeMs: number; hash: string }>();
  return async (file: string): Promise<string> => {
    const { size, mtimeMs } = await stat(file);
    const seen = known.get(file);
    if (seen && seen.size === size && seen.mtimeMs === mtimeMs) return seen.hash;
    const hash = await sha256(file);
    known.set(file, { size, mtimeMs, hash });
    return hash;
  };
}
