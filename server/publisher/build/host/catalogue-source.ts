import { access } from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema, type Manifest } from '../../../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../../../contract/thread-card.ts';
import { MANIFEST_FILE } from '../../export/catalogue-files.ts';
import {
  catalogueDatesFrom,
  readSample,
  writeCatalogue,
  type CatalogueExport,
} from '../../export/export-catalogue.ts';

// Where `npm run build` takes its catalogue from: a running server's /data (CATALOGUE_URL), a folder
// (CATALOGUE_DIR), the configured folder when it holds an export, or else the committed sample.

/** A catalogue that cannot be used, said so that the person running the build knows what to fix. */
export class CatalogueSourceError extends Error {
  override name = 'CatalogueSourceError';
}

export interface CatalogueSourceSettings extends CatalogueExport {
  /** CATALOGUE_URL: a running server's public catalogue folder, e.g. https://example.com/data. */
  catalogueUrl: string | undefined;
  /** Whether CATALOGUE_DIR was set: that folder must then hold a catalogue already. */
  catalogueDirGiven: boolean;
}

type Log = (line: string) => void;
type Fetch = typeof fetch;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Whether `dir` holds an export the site can be built from (its manifest and its cards). */
export async function holdsCatalogue(dir: string): Promise<boolean> {
  return (await exists(path.join(dir, MANIFEST_FILE))) && exists(path.join(dir, 'threads-all.json'));
}

/** Downloads one catalogue file and parses it as JSON; every failure names the URL. */
async function fetchJson(url: string, fetchFn: Fetch): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new CatalogueSourceError(`Could not reach ${url} (${cause}). Is CATALOGUE_URL right?`);
  }
  if (!response.ok) {
    throw new CatalogueSourceError(
      `${url} answered ${response.status} ${response.statusText}: CATALOGUE_URL must be a server's public catalogue folder (the one holding manifest.json, e.g. https://example.com/data).`,
    );
  }
  const body = await response.text();
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new CatalogueSourceError(
      `${url} is not valid JSON (it starts with ${JSON.stringify(body.slice(0, 40))}).`,
    );
  }
}

/** The first problem zod found, as "where: what". */
function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.') || '(top)'}: ${issue.message}` : 'invalid';
}

/** Downloads and validates a running server's manifest and cards. */
export async function downloadCatalogue(
  catalogueUrl: string,
  fetchFn: Fetch = fetch,
): Promise<{ manifest: Manifest; cards: ThreadCard[] }> {
  const base = catalogueUrl.endsWith('/') ? catalogueUrl : `${catalogueUrl}/`;
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol))
    throw new CatalogueSourceError(
      `CATALOGUE_URL must be an http(s) URL such as https://example.com/data (got "${catalogueUrl}").`,
    );
  const manifestUrl = new URL(MANIFEST_FILE, base).href;
  const cardsUrl = new URL('threads-all.json', base).href;
  const manifest = ManifestSchema.safeParse(await fetchJson(manifestUrl, fetchFn));
  if (!manifest.success)
    throw new CatalogueSourceError(
      `${manifestUrl} is not a catalogue manifest (${firstIssue(manifest.error)}).`,
    );
  const cards = ThreadCardListSchema.safeParse(await fetchJson(cardsUrl, fetchFn));
  if (!cards.success)
    throw new CatalogueSourceError(`${cardsUrl} holds an invalid card (${firstIssue(cards.error)}).`);
  return { manifest: manifest.data, cards: cards.data };
}

/**
 * Makes sure `settings.catalogueDir` holds the catalogue to build from, and says where it came
 * from: downloaded from CATALOGUE_URL and written whole (pages and search index included, with the
 * same content-hash version as the server's), CATALOGUE_DIR as it is, the configured folder's
 * export, or the committed sample exported into it (what the server does while nothing is approved).
 */
export async function prepareCatalogue(
  settings: CatalogueSourceSettings,
  { log, fetchFn = fetch, now = new Date() }: { log: Log; fetchFn?: Fetch; now?: Date },
): Promise<void> {
  const dir = settings.catalogueDir;
  if (settings.catalogueUrl) {
    log(`Downloading the catalogue from ${settings.catalogueUrl} ...`);
    const { manifest, cards } = await downloadCatalogue(settings.catalogueUrl, fetchFn);
    const dates = { generatedAt: new Date(manifest.generatedAt), nextUpdate: new Date(manifest.nextUpdate) };
    const written = await writeCatalogue(dir, cards, dates);
    log(`Wrote ${cards.length} threads into ${dir} (catalogue version ${written.manifest.version}).`);
    if (manifest.version && manifest.version !== written.manifest.version)
      log(
        `Note: the server's catalogue version is ${manifest.version}; it runs another version of this code.`,
      );
    return;
  }
  if (await holdsCatalogue(dir)) {
    log(`Building from the catalogue in ${dir}.`);
    return;
  }
  if (settings.catalogueDirGiven)
    throw new CatalogueSourceError(
      `CATALOGUE_DIR=${dir} holds no catalogue (manifest.json and threads-all.json): point it at a server's exported catalogue folder, or unset it to build from the sample.`,
    );
  const sample = await readSample(settings.sampleCatalogueDir);
  if (!sample)
    throw new CatalogueSourceError(
      `No catalogue in ${dir} and no sample in ${settings.sampleCatalogueDir} (threads-all.json): set CATALOGUE_URL or CATALOGUE_DIR.`,
    );
  const dates = sample.dates ?? catalogueDatesFrom(now, settings.refreshIntervalMinutes);
  await writeCatalogue(dir, sample.cards, dates);
  log(`No exported catalogue yet: exported the sample (${sample.cards.length} threads) into ${dir}.`);
}
