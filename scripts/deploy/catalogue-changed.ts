import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Runs before `npm install` in the example workflow (docs/examples/rebuild-site.yml), so it imports
// nothing but Node's own modules.

/** What the state file remembers of the manifest the last deployed build was made from. */
export interface CatalogueState {
  generatedAt: string;
  /** The content version (a hash of the cards): a full export's change moves it, not generatedAt. */
  version: string | null;
  /** The tail's digest (decision 037): an approval laid in front of the full export moves it. */
  head?: string | null;
}

export type CatalogueCheck =
  | { changed: true; previous: CatalogueState | null; current: CatalogueState }
  | { changed: false; current: CatalogueState };

/** The fields we compare, from a manifest's text; throws when it is not a catalogue manifest. */
export function manifestState(body: string): CatalogueState {
  const manifest = JSON.parse(body) as { generatedAt?: unknown; version?: unknown; head?: unknown };
  if (typeof manifest.generatedAt !== 'string' || Number.isNaN(Date.parse(manifest.generatedAt))) {
    throw new Error('the manifest has no valid generatedAt');
  }
  return {
    generatedAt: manifest.generatedAt,
    version: typeof manifest.version === 'string' ? manifest.version : null,
    head: typeof manifest.head === 'string' ? manifest.head : null,
  };
}

/** The state saved by the last run, or null (no file yet, or one we cannot read: rebuild). */
export async function readState(file: string): Promise<CatalogueState | null> {
  try {
    return manifestState(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The manifest at `${catalogueUrl}/manifest.json`, fetched past any cache. */
export async function fetchManifestState(catalogueUrl: string, timeoutMs = 30_000): Promise<CatalogueState> {
  const url = `${catalogueUrl.replace(/\/+$/, '')}/manifest.json`;
  const response = await fetch(url, {
    headers: { 'cache-control': 'no-cache' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return manifestState(await response.text());
}

/**
 * Compares the served manifest with the state file; when it changed (or there is no state yet),
 * writes the new state. The caller keeps the file only once its rebuild succeeded (the workflow
 * caches it after the deploy step), so a failed rebuild is tried again by the next run.
 */
export async function checkCatalogue(current: CatalogueState, stateFile: string): Promise<CatalogueCheck> {
  const previous = await readState(stateFile);
  if (
    previous &&
    previous.generatedAt === current.generatedAt &&
    previous.version === current.version &&
    (previous.head ?? null) === (current.head ?? null)
  ) {
    return { changed: false, current };
  }
  await mkdir(path.dirname(path.resolve(stateFile)), { recursive: true });
  await writeFile(stateFile, `${JSON.stringify(current, null, 2)}\n`);
  return { changed: true, previous, current };
}
