// Build-time only: the figures the About page states, read from the catalogue it is built with.
import type { Manifest } from '../../contract/manifest.ts';

/** How often the catalogue is refreshed, in words: "every hour", "every 30 minutes", "every 6 hours". */
export function refreshInterval(manifest: Pick<Manifest, 'generatedAt' | 'nextUpdate'>): string | null {
  const minutes = Math.round((Date.parse(manifest.nextUpdate) - Date.parse(manifest.generatedAt)) / 60_000);
  if (!Number.isFinite(minutes) || minutes <= 0) return null;
  if (minutes === 60) return 'every hour';
  if (minutes % 60 === 0) return `every ${minutes / 60} hours`;
  return `every ${minutes} minutes`;
}
