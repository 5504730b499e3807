import { describe, expect, test } from 'vitest';
import {
  parseCatalogueOptions,
  SMOKE_CATALOGUE_THREADS,
} from '../../../../scripts/bench/catalogue-options.ts';
import { info } from '../../../../scripts/bench/catalogue-report.ts';
import { missingFigures, missingTableFigures } from '../../../../scripts/bench/smoke-check.ts';

describe('missingFigures', () => {
  test('a complete result has nothing missing', () => {
    expect(missingFigures({ runs: [{ ms: 3 }], label: 'x', ratio: 0 }, 'approval')).toEqual([]);
  });

  test('names each NaN, infinity, null, undefined and empty list by its path', () => {
    expect(
      missingFigures(
        { a: Number.NaN, b: { c: [1, Number.POSITIVE_INFINITY] }, d: null, e: undefined, f: [] },
        'step',
      ),
    ).toEqual([
      'step.a is NaN',
      'step.b.c[1] is Infinity',
      'step.d is missing',
      'step.e is missing',
      'step.f is an empty list',
    ]);
  });

  test('a Lighthouse result without its other pages, or with one unmeasured, is incomplete', () => {
    const summary = { url: 'http://127.0.0.1/', runs: 1, performance: 100, tbtMs: 0, cls: 0 };
    const sizes = [{ threads: 950, home: summary }];
    expect(missingFigures({ sizes, pages: [] }, 'lighthouse')).toEqual(['lighthouse.pages is an empty list']);
    const thread = { page: 'thread', site: 'live server', summary: { ...summary, tbtMs: Number.NaN } };
    expect(missingFigures({ sizes, pages: [thread] }, 'lighthouse')).toEqual([
      'lighthouse.pages[0].summary.tbtMs is NaN',
    ]);
  });

  test('a step that left no result is missing', () => {
    expect(missingFigures(undefined, 'scale')).toEqual(['scale is missing']);
  });
});

describe('missingTableFigures', () => {
  test('a figure without any value or with a number that is not finite', () => {
    const figures = [
      info('a', 'measured', 'ms', { '1k': 3 }),
      info('b', 'never measured', 'ms', {}),
      info('c', 'broken', 'ms', { '1k': Number.NaN }),
    ];
    expect(missingTableFigures(figures)).toEqual(['never measured: not measured', 'broken (1k): NaN']);
  });

  test('an empty table is a failure too', () => {
    expect(missingTableFigures([])).toEqual(['the table has no figures']);
  });
});

describe('parseCatalogueOptions', () => {
  test('defaults: both sizes, two builds; --smoke: the small size once, at 100 threads, checked', () => {
    expect(parseCatalogueOptions([])).toEqual({
      help: false,
      sizes: ['1k', '100k'],
      counts: { '1k': 1000, '100k': 100_000 },
      builds: 2,
      smoke: false,
    });
    expect(parseCatalogueOptions(['--smoke'])).toEqual({
      help: false,
      sizes: ['1k'],
      counts: { '1k': SMOKE_CATALOGUE_THREADS, '100k': 100_000 },
      builds: 1,
      smoke: true,
    });
    expect(SMOKE_CATALOGUE_THREADS).toBe(100);
  });

  test('--sizes keeps the sizes named, smallest first, and refuses others', () => {
    expect(parseCatalogueOptions(['--sizes', '100k,1k']).sizes).toEqual(['1k', '100k']);
    expect(parseCatalogueOptions(['--sizes=1k']).sizes).toEqual(['1k']);
    expect(() => parseCatalogueOptions(['--sizes', '10k'])).toThrow(/10k/);
    expect(() => parseCatalogueOptions(['--fast'])).toThrow(/unknown option --fast/);
  });
});
