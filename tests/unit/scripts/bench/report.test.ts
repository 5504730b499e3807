import { describe, expect, test } from 'vitest';
import { budgetsOf } from '../../../../scripts/bench/budgets.ts';
import { errorSummary, formatJson, formatMarkdown, markdownTable } from '../../../../scripts/bench/report.ts';
import type { BenchReport, LighthouseSummary, LoadResult } from '../../../../scripts/bench/results.ts';

function load(requestsPerSec: number, p99Ms: number, errors = 0, encoding = 'br'): LoadResult {
  return {
    url: 'http://127.0.0.1/x',
    requestsPerSec,
    p99Ms,
    errors,
    requests: requestsPerSec * 10,
    encoding,
    bodyBytes: 9100,
  };
}

function lighthouse(
  performance: number,
  tbtMs: number,
  lcpMs = 1200,
  cls = 0,
  url = 'http://127.0.0.1/',
): LighthouseSummary {
  return {
    url,
    runs: 5,
    performance,
    tbtMs,
    lcpMs,
    cls,
    accessibility: 100,
    bestPractices: 100,
    seo: 100,
  };
}

type Measured = Omit<BenchReport, 'budgets'>;

/** The report with only `keep` of its measured steps. */
function only(keep: (keyof Measured)[]): Measured {
  const steps: string[] = ['static', 'api', 'lighthouse', 'jsBytes', 'noJs', 'buildTime', 'approval'];
  const entries = Object.entries(report()).filter(
    ([key]) => !steps.includes(key) || keep.includes(key as keyof Measured),
  );
  return Object.fromEntries(entries) as Measured;
}

function report(): Measured {
  return {
    generatedAt: '2026-11-23T16:30:00.000Z',
    durationMs: 600_000,
    machine: { cpus: 2, node: 'v24.21.0', pinning: 'taskset: servers on core 0' },
    notes: ['RATE_LIMIT_MULTIPLIER=10000'],
    static: {
      reference: 'nginx',
      comparisons: [
        {
          label: 'small file',
          path: '/robots.txt',
          product: load(9000, 12),
          reference: load(10_000, 8),
          ratio: 0.9,
        },
        {
          label: 'largest JS',
          path: '/_astro/a.js',
          product: load(300, 200),
          reference: load(1000, 90),
          ratio: 0.3,
        },
      ],
    },
    api: {
      reference: 'bare Fastify',
      rateLimitMultiplier: 10_000,
      comparisons: [
        {
          label: 'health',
          path: '/api/health',
          product: load(8000, 20, 0, 'identity'),
          reference: load(10_000, 9),
          ratio: 0.8,
        },
        {
          label: 'auth config',
          path: '/api/auth/config',
          product: load(8000, 30),
          reference: load(10_000, 9),
          ratio: 0.8,
        },
        {
          label: 'profile',
          path: '/api/user/profile/a',
          product: load(8000, 10, 3),
          reference: load(10_000, 9),
          ratio: 0.8,
        },
      ],
    },
    lighthouse: {
      sizes: [
        { threads: 1000, home: lighthouse(100, 20) },
        { threads: 100_000, home: lighthouse(97, 120, 1200, 0.01) },
      ],
      pages: [
        {
          page: 'topic',
          site: '1,000-thread site',
          summary: lighthouse(100, 10, 1100, 0, 'http://127.0.0.1/topics/uidesign/'),
        },
        {
          page: 'thread',
          site: 'live server',
          summary: lighthouse(100, 0, 900, 0.0004, 'http://127.0.0.1/thread/a'),
        },
        {
          page: 'profile',
          site: 'live server',
          summary: {
            ...lighthouse(100, 80, 900, 0, 'http://127.0.0.1/member'),
            blank: { performance: 100, tbtMs: 60, tbtOverBlankMs: 20 },
          },
        },
        {
          page: 'about',
          site: 'live server',
          summary: {
            ...lighthouse(99, 150, 900, 0, 'http://127.0.0.1/about'),
            blank: { performance: 100, tbtMs: 70, tbtOverBlankMs: 75.4 },
          },
        },
      ],
    },
    jsBytes: {
      threads: 1000,
      pages: [{ page: '/', scripts: 3, rawBytes: 250_000, brotliBytes: 71_300 }],
      home: { page: '/', scripts: 3, rawBytes: 250_000, brotliBytes: 71_300 },
    },
    noJs: { withJs: lighthouse(100, 20, 1500), noJs: lighthouse(100, 0, 1000), ratio: 1.5 },
    buildTime: {
      small: { count: 1000, seconds: 5 },
      large: { count: 10_000, seconds: 23 },
      perThousandSeconds: 2,
      referenceSeconds: 1.4,
      ratio: 2 / 1.4,
    },
    approval: { runs: [{ catalogueMs: 2000, homeMs: 9000 }], catalogueMedianMs: 2000, homeMedianMs: 9000 },
    failures: [],
  };
}

describe('budgetsOf', () => {
  const budgets = budgetsOf(report());
  const verdict = (figure: string) => budgets.find((budget) => budget.figure === figure)?.pass;

  test('static files pass at >= 0.8x nginx', () => {
    expect(verdict('static small file')).toBe(true);
    expect(verdict('static largest JS')).toBe(false);
  });

  test('hot reads need >= 0.5x, p99 <= 25 ms and no error', () => {
    expect(verdict('API health')).toBe(true);
    expect(verdict('API auth config')).toBe(false);
    expect(verdict('API profile')).toBe(false);
  });

  test('Lighthouse needs performance 100, TBT <= 50 ms and CLS 0; the other categories 100', () => {
    expect(verdict('Lighthouse home 1k')).toBe(true);
    expect(verdict('Lighthouse home 100k')).toBe(false);
    expect(verdict('Lighthouse home 1k (other categories)')).toBe(true);
  });

  test('the other pages have the same lines, named with the site that served them', () => {
    expect(verdict('Lighthouse topic (1,000-thread site)')).toBe(true);
    expect(verdict('Lighthouse topic (1,000-thread site) (other categories)')).toBe(true);
    expect(verdict('Lighthouse profile (live server)')).toBe(false);
    // A shift too small for three decimals still fails CLS 0, and the line shows it.
    const thread = budgets.find((budget) => budget.figure === 'Lighthouse thread (live server)');
    expect(thread).toMatchObject({ pass: false, actual: 'performance 100, TBT 0 ms, CLS 0.00040' });
  });

  test('beside the blank page: TBT over it <= 50 ms and a performance no lower than its', () => {
    // 80 ms alone fails issue 20's line, yet the page adds only 20 ms to the machine's own 60.
    expect(verdict('Lighthouse profile (live server) over the blank page')).toBe(true);
    const about = budgets.find(
      (budget) => budget.figure === 'Lighthouse about (live server) over the blank page',
    );
    expect(about).toMatchObject({
      pass: false,
      actual: '+75 ms (blank: performance 100, TBT 70 ms), performance 99',
    });
    // No blank runs (an older report): no such line.
    expect(verdict('Lighthouse topic (1,000-thread site) over the blank page')).toBeUndefined();
  });

  test('the marginal build cost may be 2x the minimal template', () => {
    expect(verdict('build time per 1,000 threads')).toBe(true);
  });

  test('figures without a budget (JS bytes, no-JS LCP, approval) add none', () => {
    expect(budgets).toHaveLength(2 + 3 + 4 + 8 + 2 + 1);
    expect(budgetsOf(only(['jsBytes', 'noJs', 'approval']))).toEqual([]);
  });
});

describe('formatMarkdown', () => {
  const full = { ...report(), budgets: budgetsOf(report()) };
  const markdown = formatMarkdown(full);

  test('dates the run and says how it was pinned, with the notes', () => {
    expect(markdown).toContain('## Benchmark, 2026-11-23 16:30 UTC');
    expect(markdown).toContain('- 2 cores, Node v24.21.0; taskset: servers on core 0');
    expect(markdown).toContain('- RATE_LIMIT_MULTIPLIER=10000');
  });

  test('a load row has both sides and the ratio', () => {
    expect(markdown).toContain(
      '| small file `/robots.txt` | 9,000 | 12 ms | 0 | br 9.1 KB | 10,000 | 8 ms | 0 | br 9.1 KB | 0.90x |',
    );
  });

  test('one section per figure', () => {
    for (const heading of [
      '### Static files vs nginx',
      '### Hot API reads vs bare Fastify',
      '### Lighthouse mobile (median of 5)',
      '### LCP vs the same home HTML without scripts',
      '### JavaScript per page',
      '### Build time',
      '### Approval to visible (median of 1)',
    ])
      expect(markdown).toContain(heading);
    expect(markdown).toContain(
      '| home, 100,000 threads | 97 | 120 ms | 1,200 ms | 0.010 | 100 | 100 | 100 |',
    );
    expect(markdown).toContain(
      '| topic `/topics/uidesign/`, 1,000-thread site | 100 | 10 ms | 1,100 ms | 0.000 | 100 | 100 | 100 |',
    );
    expect(markdown).toContain('| thread `/thread/a`, live server | 100 | 0 ms | 900 ms | 0.00040 |');
    // Beside the blank page: its median performance and TBT, then the page's paired excess.
    expect(markdown).toContain(
      '| profile `/member`, live server | 100 | 80 ms | 900 ms | 0.000 | 100 | 100 | 100 | 100 / 60 ms | +20 ms |',
    );
    expect(markdown).toContain('| 100 | 100 | 100 | — | — |');
    expect(markdown).toContain('| 5.0 s | 23.0 s | 2.00 s | 1.4 s | 1.43x |');
    expect(markdown).toContain('| 2,000 ms | 9,000 ms |');
  });

  test('the budgets table counts the failures and marks each line', () => {
    const failed = full.budgets.filter((budget) => !budget.pass).length;
    expect(markdown).toContain(`### Budgets (${failed} of ${full.budgets.length} failed)`);
    expect(markdown).toContain(
      '| static largest JS | >= 0.8x, 0 errors | 0.30x, p99 200 ms, 0 errors | FAIL |',
    );
    expect(markdown).toContain(
      '| static small file | >= 0.8x, 0 errors | 0.90x, p99 12 ms, 0 errors | pass |',
    );
  });

  test('only the steps that ran, and the steps that broke', () => {
    const partial = formatMarkdown({
      ...only(['approval']),
      budgets: [],
      failures: [{ step: 'api', error: 'Error: boom\n    at x' }],
    });
    expect(partial).toContain('### Approval to visible');
    for (const heading of [
      '### Static',
      '### Hot API',
      '### Lighthouse',
      '### LCP',
      '### JavaScript',
      '### Build',
    ])
      expect(partial).not.toContain(heading);
    expect(partial).not.toContain('### Budgets');
    expect(partial).toContain('### Steps that broke\n\n- api: Error: boom\n');
  });
});

test('markdownTable escapes pipes in cells', () => {
  expect(markdownTable(['a', 'b'], [['x|y', 'z']])).toBe('| a | b |\n| --- | --- |\n| x\\|y | z |');
});

test('formatJson is one line for stdout, indented for the file, and loses nothing', () => {
  const full = { ...report(), budgets: budgetsOf(report()) };
  expect(formatJson(full)).not.toContain('\n');
  expect(formatJson(full, true)).toContain('\n  "generatedAt"');
  expect(JSON.parse(formatJson(full))).toEqual(full);
});

test('errorSummary keeps the message and the output on one line, not the stack, and cuts it short', () => {
  const error =
    'Error: nginx exited:\nnginx: [emerg] bind() failed\n    at startNginx (nginx.ts:1:1)\n    at run.ts:2:2';
  expect(errorSummary(error)).toBe('Error: nginx exited: nginx: [emerg] bind() failed');
  expect(errorSummary('x'.repeat(400))).toHaveLength(300);
});
