import type { Manifest } from './manifest.ts';

// No zod import here: the home island imports this module.

export interface Freshness {
  fresh: boolean;
  /** Whole hours since generatedAt, never negative. */
  ageHours: number;
}

/** Freshness per spec: fresh while now is before nextUpdate; age in hours from generatedAt. */
export function describeFreshness(
  manifest: Pick<Manifest, 'generatedAt' | 'nextUpdate'>,
  now: Date,
): Freshness {
  const generated = Date.parse(manifest.generatedAt);
  const next = Date.parse(manifest.nextUpdate);
  const ageHours = Math.max(0, Math.floor((now.getTime() - generated) / 3_600_000));
  return { fresh: now.getTime() < next, ageHours };
}

/** The line under the filter buttons, e.g. "Updated 3 hours ago". */
export function freshnessText({ fresh, ageHours }: Freshness): string {
  const age =
    ageHours === 0 ? 'less than an hour ago' : `${ageHours} ${ageHours === 1 ? 'hour' : 'hours'} ago`;
  return fresh ? `Updated ${age}` : `Updated ${age} · a refresh is due`;
}
