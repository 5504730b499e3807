import { describe, expect, test } from 'vitest';
import { HELP, MILLION, parseOptions, SMOKE_EXTRAS, STEPS } from '../../../../scripts/bench/options.ts';

describe('parseOptions', () => {
  test('defaults: every step, 10 s of load, 5 Lighthouse runs, 10,000 threads, port 4900', () => {
    expect(parseOptions([])).toEqual({
      help: false,
      steps: [...STEPS],
      loadSeconds: 10,
      lighthouseRuns: 5,
      buildCount: 10_000,
      basePort: 4900,
      siteCount: 1000,
      lighthouseCounts: [1000, 100_000],
      buildRounds: 2,
      approvals: 3,
      scaleCounts: [1000, 100_000],
      smoke: false,
      extras: [],
    });
  });

  test('--million adds 1,000,000 threads to the scale step', () => {
    expect(parseOptions(['--million']).scaleCounts).toEqual([1000, 100_000, MILLION]);
  });

  test('--smoke: tiny sizes, one second of load, one Lighthouse run, one approval, whatever else was asked', () => {
    const options = parseOptions(['--smoke', '--load-seconds', '10', '--runs', '5']);
    expect(options).toMatchObject({
      smoke: true,
      steps: [...STEPS],
      extras: [...SMOKE_EXTRAS],
      loadSeconds: 1,
      lighthouseRuns: 1,
      siteCount: 100,
      lighthouseCounts: [100],
      buildRounds: 1,
      approvals: 1,
      scaleCounts: [100],
    });
    expect(options.buildCount).toBeGreaterThan(options.siteCount);
    expect(parseOptions(['--smoke', '--only', 'scale']).steps).toEqual(['scale']);
    expect(parseOptions(['--smoke', '--only', 'scale']).extras).toEqual([]);
    expect(() => parseOptions(['--smoke', '--million'])).toThrow(/--million/);
  });

  test("--only may name the other benchmarks' smokes, with --smoke only", () => {
    const options = parseOptions(['--only', 'versions,static', '--smoke']);
    expect(options).toMatchObject({ steps: ['static'], extras: ['versions'] });
    expect(parseOptions(['--smoke', '--only', 'catalogue']).steps).toEqual([]);
    expect(() => parseOptions(['--only', 'catalogue'])).toThrow(/only with --smoke/);
  });

  test('--only keeps the steps named, in the order they run', () => {
    expect(parseOptions(['--only', 'api,static']).steps).toEqual(['static', 'api']);
    expect(parseOptions(['--only=lighthouse']).steps).toEqual(['lighthouse']);
  });

  test('--only refuses an unknown step or an empty list', () => {
    expect(() => parseOptions(['--only', 'static,speed'])).toThrow(/speed/);
    expect(() => parseOptions(['--only', ''])).toThrow(/--only/);
    expect(() => parseOptions(['--only'])).toThrow(/--only/);
  });

  test('numbers, with or without =', () => {
    const options = parseOptions(['--load-seconds', '3', '--runs=1', '--build-count', '5000', '--port=5100']);
    expect(options).toMatchObject({ loadSeconds: 3, lighthouseRuns: 1, buildCount: 5000, basePort: 5100 });
  });

  test('refuses what is not a whole number >= 1, and a build count not above 1,000', () => {
    expect(() => parseOptions(['--runs', '0'])).toThrow(/--runs/);
    expect(() => parseOptions(['--load-seconds', '2.5'])).toThrow(/--load-seconds/);
    expect(() => parseOptions(['--build-count', '1000'])).toThrow(/--build-count/);
    expect(() => parseOptions(['--port', '65530'])).toThrow(/ten ports/);
  });

  test('BENCH_PORT sets the base port; --port wins over it', () => {
    expect(parseOptions([], { BENCH_PORT: '4950' }).basePort).toBe(4950);
    expect(parseOptions(['--port', '4960'], { BENCH_PORT: '4950' }).basePort).toBe(4960);
  });

  test('--help, and an unknown option is an error', () => {
    expect(parseOptions(['--help']).help).toBe(true);
    expect(() => parseOptions(['--fast'])).toThrow(/unknown option --fast/);
  });

  test('the help text names every step', () => {
    for (const step of [...STEPS, ...SMOKE_EXTRAS]) expect(HELP).toContain(step);
  });
});
