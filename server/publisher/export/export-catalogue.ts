import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema, type Manifest } from '../../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../../contract/thread-card.ts';
import type { Database } from '../../db/client.ts';
import { createCurationRunsRepository } from '../../repositories/curation-runs.ts';
import { createThreadsRepository } from '../../repositories/threads.ts';
import { toThreadCard } from '../../views/thread-views.ts';
import { writeIfChanged } from './atomic-file.ts';
import {
  catalogueFiles,
  catalogueVersion,
  DERIVED_FOLDERS,
  MANIFEST_FILE,
  manifestBody,
  type CatalogueDates,
} from './catalogue-files.ts';

/** Files written at once: enough to keep the disk busy, few enough never to run out of descriptors. */
const WRITE_CONCURRENCY = 32;

/** Every file under `dir/folder` (none when it is missing), by path relative to `dir` with `/` separators. */
export async function filesUnder(dir: string, folder: string): Promise<string[]> {
  const entries = await readdir(path.join(dir, folder), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * Writes the public catalogue into `dir`: each file whole, renamed into place, and only when its
 * content changed; pages and search files that the new catalogue no longer has are removed. The
 * manifest is written last, so a manifest on disk always describes files that are already complete.
 * Returns the manifest and whether any data file changed.
 */
export async function writeCatalogue(
  dir: string,
  cards: readonly ThreadCard[],
  dates: CatalogueDates,
): Promise<{ manifest: Manifest; dataChanged: boolean }> {
  // The common case (the 5-minute publish, nothing approved since): the version on disk says the
  // files are already these cards', so only the manifest's dates may need writing. At 100k threads
  // this skips generating and comparing ~12,800 files.
  const onDisk = await readManifest(dir);
  if (onDisk?.version && onDisk.version === catalogueVersion(JSON.stringify(cards))) {
    const manifest = {
      ...onDisk,
      generatedAt: dates.generatedAt.toISOString(),
      nextUpdate: dates.nextUpdate.toISOString(),
    };
    await writeIfChanged(path.join(dir, MANIFEST_FILE), manifestBody(manifest));
    return { manifest, dataChanged: false };
  }
  const { files, manifest } = catalogueFiles(cards, dates);
  const manifestFile = files.pop();
  const folders = new Set(files.map(([name]) => path.posix.dirname(name)));
  await Promise.all([...folders].map((folder) => mkdir(path.join(dir, folder), { recursive: true })));

  let dataChanged = false;
  for (let start = 0; start < files.length; start += WRITE_CONCURRENCY) {
    const written = await Promise.all(
      files
        .slice(start, start + WRITE_CONCURRENCY)
        .map(([name, body]) => writeIfChanged(path.join(dir, name), body)),
    );
    if (written.includes(true)) dataChanged = true;
  }
  const wanted = new Set(files.map(([name]) => name));
  for (const folder of DERIVED_FOLDERS) {
    for (const stale of (await filesUnder(dir, folder)).filter((name) => !wanted.has(name))) {
      await rm(path.join(dir, stale), { force: true });
      dataChanged = true;
    }
  }
  // A topic that is gone leaves its folder empty: remove it, so /data lists only live topics.
  const topicsDir = path.join(dir, 'pages', 'topics');
  for (const slug of await readdir(topicsDir).catch(() => [] as string[])) {
    if (!folders.has(`pages/topics/${slug}`))
      await rm(path.join(topicsDir, slug), { recursive: true, force: true });
  }
  if (manifestFile) await writeIfChanged(path.join(dir, manifestFile[0]), manifestFile[1]);
  return { manifest, dataChanged };
}

/** The manifest in `dir`, or null when it is missing or invalid. */
export async function readManifest(dir: string): Promise<Manifest | null> {
  return readFile(path.join(dir, MANIFEST_FILE), 'utf8').then(
    (body) => ManifestSchema.safeParse(JSON.parse(body)).data ?? null,
    () => null,
  );
}

export interface CatalogueExport {
  /** Where the server writes the catalogue it serves at /data and builds the home page from. */
  catalogueDir: string;
  /** The committed sample, published while no thread is approved. */
  sampleCatalogueDir: string;
  refreshIntervalMinutes: number;
  /** The API's origin when the pages are on another one: cards' picture addresses point there. */
  pictureBaseUrl?: string | undefined;
}

/** The sample's cards and dates, or null when the folder holds no sample. A broken sample is an error. */
export async function readSample(
  dir: string,
): Promise<{ cards: ThreadCard[]; dates: CatalogueDates | null } | null> {
  const all = await readFile(path.join(dir, 'threads-all.json'), 'utf8').catch(() => null);
  if (all === null) return null;
  const cards = ThreadCardListSchema.parse(JSON.parse(all));
  const manifest = await readManifest(dir);
  const dates = manifest
    ? { generatedAt: new Date(manifest.generatedAt), nextUpdate: new Date(manifest.nextUpdate) }
    : null;
  return { cards, dates };
}

/** Dates a catalogue generated at `generatedAt`: the next refresh is one interval later. */
export function catalogueDatesFrom(generatedAt: Date, refreshIntervalMinutes: number): CatalogueDates {
  return { generatedAt, nextUpdate: new Date(generatedAt.getTime() + refreshIntervalMinutes * 60_000) };
}

/**
 * Exports the approved threads as the public catalogue; while none is approved, the sample's cards
 * stand in with the sample's dates (or an empty catalogue, without a sample). The manifest dates the
 * catalogue from the last curation run that reached Threads, so every instance writes the same
 * files and the home page's freshness line says how current the curation is. Returns whether a
 * data file changed.
 */
export async function exportCatalogue(
  db: Database,
  { catalogueDir, sampleCatalogueDir, refreshIntervalMinutes, pictureBaseUrl }: CatalogueExport,
  now = new Date(),
): Promise<boolean> {
  const approved = await createThreadsRepository(db).listApproved();
  const sample = approved.length === 0 ? await readSample(sampleCatalogueDir) : null;
  if (sample) {
    const dates = sample.dates ?? catalogueDatesFrom(now, refreshIntervalMinutes);
    return (await writeCatalogue(catalogueDir, sample.cards, dates)).dataChanged;
  }
  const refreshedAt = (await createCurationRunsRepository(db).lastRefreshedAt()) ?? now;
  const { dataChanged } = await writeCatalogue(
    catalogueDir,
    approved.map((row) => toThreadCard(row, pictureBaseUrl)),
    catalogueDatesFrom(refreshedAt, refreshIntervalMinutes),
  );
  return dataChanged;
}
