import { atom } from 'nanostores';
import { ManifestSchema, type Manifest } from '../../contract/manifest.ts';
import { fetchJson } from '../lib/fetch-json.ts';

export interface ManifestCheck {
  /** The manifest as fetched; null when it cannot be read (spec: a failed manifest fetch yields null). */
  manifest: Manifest | null;
  /** The visitor's clock when it was checked: the age shown is relative to this moment. */
  checkedAt: number;
}

/** Null until the browser has checked `/data/manifest.json` once. */
export const $manifestCheck = atom<ManifestCheck | null>(null);

let pending: Promise<ManifestCheck> | null = null;

async function fetchManifest(): Promise<ManifestCheck> {
  // The contract's schema, as the server reads it: a manifest of another shape is unreadable.
  const manifest: Manifest | null = await fetchJson('/data/manifest.json', { cache: 'no-cache' }).then(
    (body) => ManifestSchema.safeParse(body).data ?? null,
    () => null,
  );
  const check = { manifest, checkedAt: Date.now() };
  $manifestCheck.set(check);
  return check;
}

/**
 * Fetches `/data/manifest.json` once per page view (later callers share the first answer); `force`
 * fetches it again. A failure records a null manifest.
 */
export function loadManifest({ force = false } = {}): Promise<ManifestCheck> {
  if (force || !pending) pending = fetchManifest();
  return pending;
}

/** The served catalogue's version ('' when the manifest is unreadable or has none). */
export async function catalogueVersion({ force = false } = {}): Promise<string> {
  return (await loadManifest({ force })).manifest?.version ?? '';
}

/** What the served catalogue's pages are checked against: its full export and its tail (decision 037). */
export interface CatalogueIds {
  /** '' when the manifest is unreadable or has none. */
  version: string;
  /** null when there is no tail (or no manifest). */
  head: string | null;
}

/** The served catalogue's version and head, from the same manifest read. */
export async function catalogueIds({ force = false } = {}): Promise<CatalogueIds> {
  const { manifest } = await loadManifest({ force });
  return { version: manifest?.version ?? '', head: manifest?.head ?? null };
}
