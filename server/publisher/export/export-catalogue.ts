import type { PostDisplay } from '../../../contract/threads-embed.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema, type Manifest } from '../../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../../contract/thread-card.ts';
import type { Database } from '../../db/client.ts';
import { createCurationRunsRepository } from '../../repositories/curation-runs.ts';
import { approvedCards, cardsInMemory } from './card-source.ts';
import { MANIFEST_FILE, type CatalogueDates } from './catalogue-files.ts';
import { streamCatalogue } from './catalogue-stream.ts';
import { clearExportState, readExportState, stateAfterFullExport, writeExportState } from './export-state.ts';
import { followChanges, STATE_MAX_AGE_MS } from './follow-changes.ts';
import { createCatalogueRepository } from '../../repositories/catalogue.ts';

/**
 * Writes the public catalogue of `cards` into `dir` (see streamCatalogue): each file renamed into
 * place, and only when its content changed; stale pages and search files removed; the manifest last.
 * Returns the manifest and whether any data file changed. For cards already in memory (the sample,
 * a downloaded catalogue); the export of the approved threads streams them from the database.
 */
export async function writeCatalogue(
  dir: string,
  cards: readonly ThreadCard[],
  dates: CatalogueDates,
  options: { splitBytes?: number } = {},
): Promise<{ manifest: Manifest; dataChanged: boolean }> {
  return streamCatalogue(dir, cardsInMemory(cards), dates, await readManifest(dir), options);
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
  /** Decision 070: 'embed' strips the copy from cards of authors who did not consent; absent: 'card'. */
  postDisplay?: PostDisplay | undefined;
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
 * files and the home page's freshness line says how current the curation is. Threads approved since
 * the last full export are laid in front of it when they can be (followChanges, decision 037), so an
 * approval costs the same at any catalogue size. Returns whether a data file changed.
 */
export async function exportCatalogue(
  db: Database,
  { catalogueDir, sampleCatalogueDir, refreshIntervalMinutes, pictureBaseUrl, postDisplay }: CatalogueExport,
  now = new Date(),
): Promise<boolean> {
  // One row tells whether the sample stands in; the export itself streams the rows page by page.
  const anyApproved = (await createCatalogueRepository(db).listApprovedPage(null, 1)).rows.length > 0;
  const sample = anyApproved ? null : await readSample(sampleCatalogueDir);
  if (sample) {
    await clearExportState(catalogueDir);
    const dates = sample.dates ?? catalogueDatesFrom(now, refreshIntervalMinutes);
    return (await writeCatalogue(catalogueDir, sample.cards, dates)).dataChanged;
  }
  const refreshedAt = (await createCurationRunsRepository(db).lastRefreshedAt()) ?? now;
  const dates = catalogueDatesFrom(refreshedAt, refreshIntervalMinutes);
  const onDisk = await readManifest(catalogueDir);
  const state = await readExportState(catalogueDir);
  const cards = { pictureBase: pictureBaseUrl, display: postDisplay };
  if (state && onDisk && onDisk.version === state.version) {
    const followed = await followChanges(db, catalogueDir, { state, onDisk, dates, now, cards });
    if (followed !== null) return followed;
  }
  // Taken before the export reads: whatever it could not see, the next export follows.
  const changes = createCatalogueRepository(db);
  const snapshot = await changes.snapshot();
  const { manifest, dataChanged } = await streamCatalogue(
    catalogueDir,
    approvedCards(db, cards),
    dates,
    onDisk,
  );
  await writeExportState(catalogueDir, await stateAfterFullExport(catalogueDir, manifest, snapshot, cards));
  await changes.prune(new Date(snapshot.at.getTime() - 2 * STATE_MAX_AGE_MS));
  return dataChanged;
}
