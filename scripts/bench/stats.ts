/** The arithmetic of the benchmark: medians and ratios, rounded for reading. */

/** The median of some numbers (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

/** `value / reference`, or null when either is missing or the reference is not positive. */
export function ratio(value: number | null | undefined, reference: number | null | undefined): number | null {
  if (value == null || reference == null || !Number.isFinite(value) || !Number.isFinite(reference))
    return null;
  if (reference <= 0) return null;
  return value / reference;
}

/** Rounds to `digits` decimals (for JSON a person reads). */
export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Marginal cost per 1,000 items between two measurements at `smallCount` and `largeCount` items. */
export function marginalPerThousand(
  small: { count: number; value: number },
  large: { count: number; value: number },
): number {
  if (large.count <= small.count) throw new Error('the larger measurement needs more items');
  return ((large.value - small.value) / (large.count - small.count)) * 1000;
}
