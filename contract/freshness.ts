import type { Manifest } from './manifest.ts';

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
  return {
    fresh: now.getTime() < Date.parse(manifest.nextUpdate),
    ageHours: ageInHours(manifest.generatedAt, now),
  };
}

/** Whole hours since `generatedAt` (never negative: a visitor's clock may run behind the server's). */
export function ageInHours(generatedAt: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(generatedAt)) / 3_600_000));
}

/** The line under the filter buttons, in a visitor's words: "Updated 3 hours ago", "Updated 2 days ago". */
export function freshnessText({ ageHours }: Pick<Freshness, 'ageHours'>): string {
  if (ageHours === 0) return 'Updated less than an hour ago';
  if (ageHours < 48) return `Updated ${ageHours} ${ageHours === 1 ? 'hour' : 'hours'} ago`;
  return `Updated ${Math.floor(ageHours / 24)} days ago`;
}

/** The operator's reading on the debug page: the age in hours and whether the next refresh is overdue. */
export function operatorFreshnessText({ fresh, ageHours }: Freshness): string {
  return `generated ${ageHours} h ago; ${fresh ? 'fresh (before nextUpdate)' : 'a refresh is due (past nextUpdate)'}`;
}
