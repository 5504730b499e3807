/** `npm run bench`'s report as markdown: one table per step, then the budgets. */
import type { BenchReport, LighthouseSummary, LoadComparison, ScaleResult, ScaleSize } from './results.ts';

/** A markdown table; cells' pipes are escaped so a value cannot break it. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
/** A ratio as the report and the budget lines write it. */
export const ratio = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)}x`);
const ms = (value: number) => `${integer(value)} ms`;
/** A difference in ms with its sign: +40 ms, -12 ms. */
export const signedMs = (value: number) => {
  const rounded = Math.round(value);
  return `${rounded < 0 ? '-' : '+'}${ms(Math.abs(rounded))}`;
};
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
/** A CLS as the report and the budget lines write it: a shift too small for three decimals still shows. */
export const clsText = (cls: number) => (cls === 0 || cls >= 0.001 ? cls.toFixed(3) : cls.toPrecision(2));

function loadRows(comparisons: readonly LoadComparison[]): string[][] {
  return comparisons.map(({ label, path, product, reference, ratio: r }) => [
    `${label} \`${path}\``,
    integer(product.requestsPerSec),
    ms(product.p99Ms),
    String(product.errors),
    `${product.encoding} ${kb(product.bodyBytes)}`,
    integer(reference.requestsPerSec),
    ms(reference.p99Ms),
    String(reference.errors),
    `${reference.encoding} ${kb(reference.bodyBytes)}`,
    ratio(r),
  ]);
}

const LOAD_HEADER = [
  'path',
  'req/s',
  'p99',
  'errors',
  'sent',
  'ref req/s',
  'ref p99',
  'ref errors',
  'ref sent',
  'ratio',
];

function lighthouseRow(name: string, summary: LighthouseSummary): string[] {
  return [
    name,
    String(summary.performance),
    ms(summary.tbtMs),
    ms(summary.lcpMs),
    clsText(summary.cls),
    String(summary.accessibility),
    String(summary.bestPractices),
    String(summary.seo),
    summary.blank ? `${summary.blank.performance} / ${ms(summary.blank.tbtMs)}` : '—',
    summary.blank ? signedMs(summary.blank.tbtOverBlankMs) : '—',
  ];
}

const LIGHTHOUSE_HEADER = [
  'page',
  'performance',
  'TBT',
  'LCP',
  'CLS',
  'accessibility',
  'best practices',
  'SEO',
  'blank page: performance / TBT',
  'TBT over blank',
];

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** The scale table: one row per figure, one column per size, then largest / smallest. */
export function scaleTable({ sizes }: ScaleResult): string {
  const rows: [string, (size: ScaleSize) => number, (value: number) => string, string][] = [
    ['memory added by the export (peak RSS − RSS before)', (s) => s.exportAddedBytes, mb, '< 256 MB'],
    ['export: RSS with PGlite open', (s) => s.exportRssOpen, mb, ''],
    ['export: RSS before (PGlite has read the rows once)', (s) => s.exportRssBefore, mb, ''],
    ['export: peak RSS (sampled every 50 ms)', (s) => s.exportPeakRss, mb, ''],
    ['export: time, cold (empty folder)', (s) => s.exportColdMs, ms, ''],
    ['export: time, warm (nothing changed)', (s) => s.exportWarmMs, ms, ''],
    ['approval → in /data/pages/all/1.json', (s) => s.approval.catalogueMedianMs, ms, '<= 1,500 ms, flat'],
    ['approval → in the pre-rendered home HTML', (s) => s.approval.homeMedianMs, ms, '<= 1,500 ms, flat'],
    ['server start-up (spawn → /api/health ok and / served)', (s) => s.startMs, ms, 'flat'],
    ['server idle RSS (started, settled)', (s) => s.idleRss, mb, 'flat'],
    ['server first start (exports, builds the site)', (s) => s.firstStartMs, ms, ''],
  ];
  const first = sizes[0];
  const last = sizes.at(-1);
  const header = [
    'figure',
    ...sizes.map((size) => `${integer(size.threads)} threads`),
    ...(sizes.length > 1 && first && last ? [`${integer(last.threads)} / ${integer(first.threads)}`] : []),
    'target',
  ];
  const body = rows.map(([label, value, format, target]) => {
    const cells = sizes.map((size) => format(value(size)));
    if (sizes.length > 1 && first && last)
      cells.push(ratio(value(first) ? value(last) / value(first) : null));
    return [label, ...cells, target];
  });
  return markdownTable(header, body);
}

/** An error on one line: its message and output without the stack, at most 300 characters. */
export function errorSummary(error: string): string {
  const lines = error.split('\n').filter((line) => !/^\s+at /.test(line));
  const text = lines.join(' ').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** The whole report as markdown (what latest.md holds and the README shows). */
export function formatMarkdown(report: BenchReport): string {
  const out: string[] = [`## Benchmark, ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC`, ''];
  const facts = [
    `${report.machine.cpus} cores, Node ${report.machine.node}; ${report.machine.pinning}`,
    ...report.notes,
  ];
  out.push(...facts.map((fact) => `- ${fact}`), '');
  if (report.static) {
    out.push(`### Static files vs ${report.static.reference}`, '');
    out.push(markdownTable(LOAD_HEADER, loadRows(report.static.comparisons)), '');
  }
  if (report.api) {
    out.push(`### Hot API reads vs ${report.api.reference}`, '');
    out.push(markdownTable(LOAD_HEADER, loadRows(report.api.comparisons)), '');
  }
  if (report.lighthouse) {
    const { sizes, pages } = report.lighthouse;
    const runs = sizes[0]?.home.runs ?? pages[0]?.summary.runs ?? 0;
    out.push(`### Lighthouse mobile (median of ${runs})`, '');
    out.push(
      'Each run is followed by one on a blank page (a heading and a sentence, decision 053): what Chromium costs this machine to open any page, beside what the page adds ("TBT over blank": the median of the paired differences).',
      '',
    );
    if (pages.length > 0)
      out.push(
        'Home at every size; the other pages at one size only, on the site each row names: the largest topic; a thread page (up to five threads of its topic approved, so that it lists related ones) and a profile on the live server, since both come from the server’s database, which the servers of the cached sites leave empty. Home and that thread page again with PUBLIC_POST_DISPLAY=embed (decision 070), the same database restarted: the frames come from the simulator’s stand-in for Meta’s script, so the cost of Meta’s own script and frame is not in these figures.',
        '',
      );
    const rows = [
      ...sizes.map(({ threads, home }) => lighthouseRow(`home, ${integer(threads)} threads`, home)),
      ...pages.map(({ page, site, summary }) =>
        lighthouseRow(`${page} \`${new URL(summary.url).pathname}\`, ${site}`, summary),
      ),
    ];
    out.push(markdownTable(LIGHTHOUSE_HEADER, rows), '');
  }
  if (report.noJs) {
    const { withJs, noJs, ratio: r } = report.noJs;
    out.push(`### LCP vs the same home HTML without scripts (median of ${noJs.runs}; ratio ${ratio(r)})`, '');
    const rows = [
      lighthouseRow('home as built (product)', withJs),
      lighthouseRow('home, no scripts (nginx)', noJs),
    ];
    out.push(markdownTable(LIGHTHOUSE_HEADER, rows), '');
  }
  if (report.jsBytes) {
    const { threads, pages, home } = report.jsBytes;
    out.push(
      `### JavaScript per page (${integer(threads)}-thread site; home total ${home ? kb(home.brotliBytes) : 'n/a'} brotli)`,
      '',
    );
    const rows = pages.map((page) => [
      page.page,
      String(page.scripts),
      kb(page.rawBytes),
      kb(page.brotliBytes),
    ]);
    out.push(markdownTable(['page', 'scripts', 'raw', 'brotli'], rows), '');
  }
  if (report.buildTime) {
    const { small, large, perThousandSeconds, referenceSeconds, ratio: r } = report.buildTime;
    out.push('### Build time', '');
    out.push(
      markdownTable(
        [
          `${integer(small.count)} threads`,
          `${integer(large.count)} threads`,
          'per 1,000',
          'reference',
          'ratio',
        ],
        [
          [
            `${small.seconds.toFixed(1)} s`,
            `${large.seconds.toFixed(1)} s`,
            `${perThousandSeconds.toFixed(2)} s`,
            `${referenceSeconds} s`,
            ratio(r),
          ],
        ],
      ),
      '',
    );
  }
  if (report.approval) {
    const { runs, catalogueMedianMs, homeMedianMs } = report.approval;
    out.push(`### Approval to visible (median of ${runs.length})`, '');
    out.push(
      markdownTable(
        ['in /data/pages/all/1.json', 'in the home HTML'],
        [[ms(catalogueMedianMs), ms(homeMedianMs)]],
      ),
      '',
    );
  }
  if (report.scale) {
    const approvals = report.scale.sizes[0]?.approval.runs.length ?? 0;
    out.push(`### Scale (approval: median of ${approvals})`, '');
    out.push(scaleTable(report.scale), '');
  }
  if (report.budgets.length > 0) {
    const failed = report.budgets.filter((budget) => !budget.pass).length;
    out.push(`### Budgets (${failed} of ${report.budgets.length} failed)`, '');
    const rows = report.budgets.map((b) => [b.figure, b.budget, b.actual, b.pass ? 'pass' : 'FAIL']);
    out.push(markdownTable(['figure', 'budget', 'measured', ''], rows), '');
  }
  if (report.failures.length > 0) {
    out.push('### Steps that broke', '');
    out.push(...report.failures.map(({ step, error }) => `- ${step}: ${errorSummary(error)}`), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The report as JSON: pretty for the file, one line for stdout after the table. */
export function formatJson(report: BenchReport, pretty = false): string {
  return pretty ? `${JSON.stringify(report, null, 2)}\n` : JSON.stringify(report);
}
