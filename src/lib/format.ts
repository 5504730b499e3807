/** Compact count for card footers: 950, 1.2k, 12k, 1.5M. */
export function formatCount(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${trim(value / 1000)}k`;
  return `${trim(value / 1_000_000)}M`;
}

function trim(value: number): string {
  return value >= 10 ? String(Math.floor(value)) : String(Math.floor(value * 10) / 10);
}

/** "1 like" / "1.2k likes": the count with its noun, singular only for exactly one. */
export function countLabel(value: number, singular: string, plural: string): string {
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}
