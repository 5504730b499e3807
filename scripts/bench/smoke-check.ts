/**
 * The smoke mode's check (`npm run bench -- --smoke`, `bench:catalogue -- --smoke`, run by `npm test`):
 * a step that ran without throwing must also have produced its figures, or a broken measurement would
 * pass as a report full of NaN.
 */
import type { Figure } from './catalogue-report.ts';

/**
 * Where `value` lacks a figure: the path of every number that is not finite, every null or
 * undefined and every empty list in it; none when it is complete.
 */
export function missingFigures(value: unknown, at = 'result'): string[] {
  if (value === null || value === undefined) return [`${at} is missing`];
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [`${at} is ${value}`];
  if (Array.isArray(value))
    return value.length === 0
      ? [`${at} is an empty list`]
      : value.flatMap((item, index) => missingFigures(item, `${at}[${index}]`));
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => missingFigures(item, `${at}.${key}`));
  return [];
}

/** The catalogue table's figures without a value, or with a number that is not finite. */
export function missingTableFigures(figures: readonly Figure[]): string[] {
  if (figures.length === 0) return ['the table has no figures'];
  return figures.flatMap((figure) => {
    const values = Object.entries(figure.values);
    if (values.length === 0) return [`${figure.label}: not measured`];
    return values
      .filter(([, value]) => typeof value === 'number' && !Number.isFinite(value))
      .map(([size, value]) => `${figure.label} (${size}): ${String(value)}`);
  });
}
