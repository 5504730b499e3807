import { describe, expect, test } from 'vitest';
import { SMOKE_EXTRAS, STEPS } from '../../../../scripts/bench/options.ts';
import { SMOKE_PLAN, smokePlanLines } from '../../../../scripts/bench/smoke-plan.ts';
import { smokeProblems, type SmokeResults } from '../../../../scripts/bench/smoke.ts';

describe('the smoke plan', () => {
  test('names every step and benchmark the smoke shrinks, each with why its path is still covered', () => {
    const named = SMOKE_PLAN.map((entry) => entry.step).join(', ');
    for (const step of [...STEPS, ...SMOKE_EXTRAS]) expect(named).toContain(step);
    for (const entry of SMOKE_PLAN) expect(entry.why.length).toBeGreaterThan(10);
  });

  test('prints one line per entry after its heading', () => {
    const lines = smokePlanLines();
    expect(lines).toHaveLength(SMOKE_PLAN.length + 1);
    expect(lines[1]).toContain(SMOKE_PLAN[0]?.smoke);
  });
});

describe('smokeProblems', () => {
  const approval = { runs: [{ catalogueMs: 900, homeMs: 1000 }], catalogueMedianMs: 900, homeMedianMs: 1000 };
  const results = (measured: SmokeResults['measured'], problems: [string, string[]][] = []) =>
    ({ measured, problems: new Map(problems) }) as SmokeResults;

  test('none when every wanted step left its figures and the extras found nothing', () => {
    const options = { steps: ['approval' as const], extras: ['versions' as const] };
    expect(smokeProblems(options, results({ approval }, [['versions', []]]), new Set())).toEqual([]);
  });

  test("a missing figure, an extra's own problem and an extra that left nothing are each named", () => {
    const options = { steps: ['approval' as const], extras: ['catalogue' as const, 'versions' as const] };
    const broken = results({ approval: { ...approval, homeMedianMs: Number.NaN } }, [
      ['versions', ['20 files: the change wrote 13 files, not 14']],
    ]);
    expect(smokeProblems(options, broken, new Set())).toEqual([
      'approval: approval.homeMedianMs is NaN',
      'catalogue: catalogue left no result',
      'versions: 20 files: the change wrote 13 files, not 14',
    ]);
  });

  test('a step that broke is reported by its failure, not again here', () => {
    const options = { steps: ['scale' as const], extras: [] };
    expect(smokeProblems(options, results({}), new Set(['scale']))).toEqual([]);
    expect(smokeProblems(options, results({}), new Set())).toEqual(['scale: scale is missing']);
  });
});
