import { describe, expect, test } from 'vitest';
import { budgetsOf } from '../../../../scripts/bench/budgets.ts';
import { formatMarkdown, scaleTable } from '../../../../scripts/bench/report.ts';
import type { BenchReport, ScaleSize } from '../../../../scripts/bench/results.ts';

function size(threads: number, figures: Partial<ScaleSize> = {}): ScaleSize {
  return {
    threads,
    exportColdMs: 400,
    exportWarmMs: 60,
    exportRssOpen: 550e6,
    exportRssBefore: 600e6,
    exportPeakRss: 700e6,
    exportAddedBytes: 100e6,
    firstStartMs: 8000,
    startMs: 2000,
    idleRss: 600e6,
    approval: { runs: [{ catalogueMs: 900, homeMs: 1000 }], catalogueMedianMs: 900, homeMedianMs: 1000 },
    ...figures,
  };
}

function report(sizes: ScaleSize[]): Omit<BenchReport, 'budgets'> {
  return {
    generatedAt: '2026-11-25T02:00:00.000Z',
    durationMs: 1000,
    machine: { cpus: 2, node: 'v24', pinning: 'none' },
    notes: [],
    scale: { sizes },
    failures: [],
  };
}

const verdicts = (sizes: ScaleSize[]) =>
  Object.fromEntries(budgetsOf(report(sizes)).map((budget) => [budget.figure, budget.pass]));

describe('the scale budgets (issue 19 targets)', () => {
  test('flat and within the targets at 1k and 100k: every line passes', () => {
    expect(verdicts([size(1000), size(100_000, { startMs: 2500, idleRss: 650e6 })])).toEqual({
      'scale: memory added by the export': true,
      'scale: approval to visible in /data': true,
      'scale: approval to the pre-rendered home HTML': true,
      'scale: approval to visible in /data flat across sizes': true,
      'scale: approval to the pre-rendered home HTML flat across sizes': true,
      'scale: server start-up flat across sizes': true,
      'scale: idle RSS flat across sizes': true,
    });
  });

  test('the export adding 256 MB or more, at any size, fails', () => {
    const found = verdicts([size(1000), size(100_000, { exportAddedBytes: 1.47e9 })]);
    expect(found['scale: memory added by the export']).toBe(false);
  });

  test('an approval over 1.5 s on the pre-rendered home fails, even when the catalogue was quick', () => {
    const slow = size(100_000, {
      approval: { runs: [{ catalogueMs: 900, homeMs: 4000 }], catalogueMedianMs: 900, homeMedianMs: 4000 },
    });
    const found = verdicts([size(1000), slow]);
    expect(found['scale: approval to the pre-rendered home HTML']).toBe(false);
    expect(found['scale: approval to the pre-rendered home HTML flat across sizes']).toBe(false);
    expect(found['scale: approval to visible in /data']).toBe(true);
    expect(found['scale: approval to visible in /data flat across sizes']).toBe(true);
  });

  test('a slow catalogue fails its own lines, whatever the home did', () => {
    const slow = size(100_000, {
      approval: { runs: [{ catalogueMs: 4000, homeMs: 1000 }], catalogueMedianMs: 4000, homeMedianMs: 1000 },
    });
    const found = verdicts([size(1000), slow]);
    expect(found['scale: approval to visible in /data']).toBe(false);
    expect(found['scale: approval to visible in /data flat across sizes']).toBe(false);
    expect(found['scale: approval to the pre-rendered home HTML']).toBe(true);
  });

  test('start-up and idle memory that grow with the catalogue are not flat', () => {
    const found = verdicts([size(1000), size(100_000, { startMs: 11_600, idleRss: 1.2e9 })]);
    expect(found['scale: server start-up flat across sizes']).toBe(false);
    expect(found['scale: idle RSS flat across sizes']).toBe(false);
  });

  test('one size (the smoke run) has no flatness to judge', () => {
    expect(Object.keys(verdicts([size(100)]))).toEqual([
      'scale: memory added by the export',
      'scale: approval to visible in /data',
      'scale: approval to the pre-rendered home HTML',
    ]);
  });
});

describe('the scale table', () => {
  test('one column per size, then largest / smallest, then the target', () => {
    const table = scaleTable({ sizes: [size(1000), size(100_000, { exportAddedBytes: 1.4e9 })] });
    expect(table.split('\n')[0]).toBe(
      '| figure | 1,000 threads | 100,000 threads | 100,000 / 1,000 | target |',
    );
    expect(table).toContain(
      '| memory added by the export (peak RSS − RSS before) | 100 MB | 1400 MB | 14.00x | < 256 MB |',
    );
    expect(table).toContain(
      '| approval → in the pre-rendered home HTML | 1,000 ms | 1,000 ms | 1.00x | <= 1,500 ms, flat |',
    );
  });

  test('is a section of the report, with the number of approvals timed', () => {
    const markdown = formatMarkdown({ ...report([size(1000)]), budgets: [] });
    expect(markdown).toContain('### Scale (approval: median of 1)');
    expect(markdown).toContain('| server start-up (spawn → /api/health ok and / served) | 2,000 ms | flat |');
  });
});
