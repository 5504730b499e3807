import path from 'node:path';
import type { SiteVersionsRepository } from '../../repositories/site-versions.ts';
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

/** Whether a path under the catalogue folder is one a version carries (a public file or its copy). */
export function isVersionCatalogueFile(relative: string): boolean {
  return PUBLIC_CATALOGUE_FILE.test(baseName(relative.split(path.sep).join('/')));
}

/**
 * Every file one version is served from: the site's pages and assets (with the build's .br/.gz
 * copies) and, unless `catalogue` is false, the public catalogue files (with theirs).
 */
export async function versionFiles(
  siteDir: string,
  catalogueDir: string,
  { catalogue = true }: { catalogue?: boolean } = {},
): Promise<[site: VersionFile[], data: VersionFile[]]> {
  const byKey = (a: VersionFile, b: VersionFile) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const [site, data] = await Promise.all([
    // Never listing the site's copy of the catalogue (data/ is served from the catalogue folder).
    filesIn(
      siteDir,
      'site',
      (relative) => isSiteFile(baseName(relative)),
      (folder) => !isSiteFolder(folder),
    ),
    catalogue ? filesIn(catalogueDir, 'data', isVersionCatalogueFile) : [],
  ]);
  return [site.sort(byKey), data.sort(byKey)];
}

/** The bytes the newest version holds at `key` (`data/...`), or null when it holds none there. */
export async function newestFile(repository: SiteVersionsRepository, key: string): Promise<Buffer | null> {
  const hash = (await repository.liveHashes([key])).get(key);
  const [object] = hash ? await repository.readObjects([hash]) : [];
  return object?.body ?? null;
}
