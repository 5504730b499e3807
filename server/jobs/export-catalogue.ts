import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../../contract/manifest.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { matchesFilter } from '../../contract/thread-filter.ts';
import type { Database } from '../db/client.ts';
import { createCurationRunsRepository } from '../repositories/curation-runs.ts';
import { createThreadsRepository } from '../repositories/threads.ts';
import { toThreadCard } from '../views/thread-views.ts';
import { writeIfChanged } from './atomic-file.ts';

/** How many of the newest cards go into threads-recent.json. */
export const RECENT_COUNT = 24;

/** The catalogue files that are public (spec section 7); anything else in the folder stays private. */
export const PUBLIC_CATALOGUE_FILE = /^(manifest|threads-(all|text|images|recent))\.json$/;

export interface CatalogueOptions {
  now: Date;
  refreshIntervalMinutes: number;
}

function newestFirst(cards: readonly ThreadCard[]): ThreadCard[] {
  return cards
    .map((card, index) => ({ card, index, time: card.timestamp ? Date.parse(card.timestamp) : -Infinity }))
    .sort((a, b) => b.time - a.time || a.index - b.index)
    .map(({ card }) => card);
}

/**
 * Writes the public catalogue (spec section 7 file names) into `dir`: each file whole, renamed into
 * place, and only when its content changed. The manifest is written last, so a manifest on disk
 * always describes data files that are already complete. Returns the manifest and whether any data
 * file changed.
 */
export async function writeCatalogue(
  dir: string,
  cards: readonly ThreadCard[],
  { now, refreshIntervalMinutes }: CatalogueOptions,
): Promise<{ manifest: Manifest; dataChanged: boolean }> {
  await mkdir(dir, { recursive: true });
  const text = cards.filter((card) => matchesFilter(card, 'text'));
  const images = cards.filter((card) => matchesFilter(card, 'images'));
  const files: [string, unknown][] = [
    ['threads-all.json', cards],
    ['threads-text.json', text],
    ['threads-images.json', images],
    ['threads-recent.json', newestFirst(cards).slice(0, RECENT_COUNT)],
  ];
  let dataChanged = false;
  for (const [name, value] of files) {
    if (await writeIfChanged(path.join(dir, name), JSON.stringify(value))) dataChanged = true;
  }

  const manifest: Manifest = {
    generatedAt: now.toISOString(),
    nextUpdate: new Date(now.getTime() + refreshIntervalMinutes * 60_000).toISOString(),
    counts: { all: cards.length, text: text.length, images: images.length },
  };
  await writeIfChanged(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, dataChanged };
}

export interface CatalogueExport {
  /** Where the server writes the catalogue it serves at /data and builds the home page from. */
  catalogueDir: string;
  /** The committed sample, published while no thread is approved. */
  sampleCatalogueDir: string;
  refreshIntervalMinutes: number;
}

/** Copies the sample's public files unchanged (its manifest included); returns whether any changed. */
async function copySample(from: string, to: string): Promise<boolean> {
  await mkdir(to, { recursive: true });
  const names = (await readdir(from)).filter((name) => PUBLIC_CATALOGUE_FILE.test(name)).sort();
  let changed = false;
  // The manifest goes last, like writeCatalogue's.
  for (const name of [...names.filter((n) => n !== 'manifest.json'), 'manifest.json']) {
    const body = await readFile(path.join(from, name), 'utf8').catch(() => null);
    if (body !== null && (await writeIfChanged(path.join(to, name), body))) changed = true;
  }
  return changed;
}

/**
 * Exports the approved threads as the public catalogue; while none is approved, the sample stands in
 * (or an empty catalogue, without a sample). The manifest dates the catalogue from the last curation
 * run that reached Threads, so every instance writes the same files and the home page's freshness
 * line says how current the curation is. Returns whether a data file changed.
 */
export async function exportCatalogue(
  db: Database,
  { catalogueDir, sampleCatalogueDir, refreshIntervalMinutes }: CatalogueExport,
  now = new Date(),
): Promise<boolean> {
  const approved = await createThreadsRepository(db).listApproved();
  if (approved.length === 0 && (await hasSample(sampleCatalogueDir)))
    return copySample(sampleCatalogueDir, catalogueDir);
  const refreshedAt = (await createCurationRunsRepository(db).lastRefreshedAt()) ?? now;
  const { dataChanged } = await writeCatalogue(catalogueDir, approved.map(toThreadCard), {
    now: refreshedAt,
    refreshIntervalMinutes,
  });
  return dataChanged;
}

async function hasSample(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [] as string[])).includes('threads-all.json');
}
