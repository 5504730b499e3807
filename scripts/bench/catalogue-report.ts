// The catalogue benchmark's figures: how they are kept, judged against their budgets and printed.

/** The catalogue sizes the benchmark runs at, by their column name. */
export const SIZES = { '1k': 1_000, '100k': 100_000 } as const;
export type SizeName = keyof typeof SIZES;

export type Unit = 'bytes' | 'ms' | 'ratio' | 'count' | 'text';
export type Verdict = 'ok' | 'over';

/** One line of the table: a measured figure at one or both sizes, with its budget when it has one. */
export interface Figure {
  /** Stable key for the JSON output. */
  id: string;
  label: string;
  unit: Unit;
  values: Partial<Record<SizeName | 'ratio', number | string>>;
  /** The budget in words, e.g. "< 100 KB". */
  budget: string | null;
  /** Null when the figure has no budget or was not measured. */
  verdict: Verdict | null;
}

/** Bytes in kilobytes of 1,000 bytes (the budgets' unit). */
export const KB = 1000;

/** A figure without a budget. */
export function info(id: string, label: string, unit: Unit, values: Figure['values']): Figure {
  return { id, label, unit, values, budget: null, verdict: null };
}

/**
 * A figure judged against `budget`: ok when `within(value)` holds for every size it was measured at
 * (and for the ratio, when there is one).
 */
export function budgeted(
  id: string,
  label: string,
  unit: Unit,
  values: Figure['values'],
  budget: string,
  within: (value: number) => boolean,
): Figure {
  const measured = Object.values(values).filter((value): value is number => typeof value === 'number');
  const verdict = measured.length === 0 ? null : measured.every(within) ? 'ok' : 'over';
  return { id, label, unit, values, budget, verdict };
}

/** Two byte or time figures as the ratio 100k/1k, and whether it stays within `tolerance` of 1. */
export function scaling(
  id: string,
  label: string,
  unit: Unit,
  small: number | undefined,
  large: number | undefined,
  tolerance = 0.05,
): Figure {
  const values: Figure['values'] = {};
  if (small !== undefined) values['1k'] = small;
  if (large !== undefined) values['100k'] = large;
  const ratio = small && large !== undefined ? large / small : undefined;
  if (ratio !== undefined) values.ratio = ratio;
  const verdict = ratio === undefined ? null : Math.abs(ratio - 1) <= tolerance ? 'ok' : 'over';
  return { id, label, unit, values, budget: `ratio within ${tolerance * 100}%`, verdict };
}

function format(value: number | string | undefined, unit: Unit): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  switch (unit) {
    case 'bytes':
      if (value >= 1e6) return `${(value / 1e6).toFixed(1)} MB`;
      if (value >= KB) return `${(value / KB).toFixed(1)} KB`;
      return `${value} B`;
    case 'ms':
      if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
      return `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
    case 'ratio':
      return value.toFixed(3);
    case 'count':
      return value.toLocaleString('en-US');
    case 'text':
      return String(value);
  }
}

/** The figures as a plain-text table: one row each, sizes in columns, then the budget and the verdict. */
export function formatTable(figures: readonly Figure[]): string {
  const header = ['figure', '1k', '100k', '100k/1k', 'budget', ''];
  const rows = figures.map((figure) => [
    figure.label,
    format(figure.values['1k'], figure.unit),
    format(figure.values['100k'], figure.unit),
    format(figure.values.ratio, 'ratio'),
    figure.budget ?? '',
    figure.verdict ?? '',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        // Numbers right-aligned, words left-aligned.
        return column >= 1 && column <= 3 ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Prints progress on stderr, prefixed with the time since the benchmark started. */
export function createProgress(): (message: string) => void {
  const started = performance.now();
  return (message) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(0).padStart(4);
    process.stderr.write(`[${seconds} s] ${message}\n`);
  };
}
