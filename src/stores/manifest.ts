import { atom } from 'nanostores';
import type { Manifest } from '../../contract/manifest.ts';
import { fetchJson } from '../lib/fetch-json.ts';

export interface ManifestCheck {
  /** The manifest as fetched; null when it cannot be read (spec: a failed manifest fetch yields null). */
  manifest: Manifest | null;
  /** The visitor's clock when it was checked: the age shown is relative to this moment. */
  checkedAt: number;
}

/** Null until the browser has checked `/data/manifest.json` once. */
export const $manifestCheck = atom<ManifestCheck | null>(null);

/** Fetches `/data/manifest.json` and records when; a failure records a null manifest. */
export async function loadManifest(): Promise<void> {
  let manifest: Manifest | null = null;
  try {
    const body = (await fetchJson('/data/manifest.json', { cache: 'no-cache' })) as Partial<Manifest> | null;
    if (body && typeof body.generatedAt === 'string' && typeof body.nextUpdate === 'string')
      manifest = body as Manifest;
  } catch {
    manifest = null;
  }
  $manifestCheck.set({ manifest, checkedAt: Date.now() });
}
