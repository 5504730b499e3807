/**
 * `npm run bench:catalogue`: proves the paged catalogue scales. At 1,000 and 100,000 synthetic threads
 * it builds the site, serves it with the real server and measures in Chromium what the home page,
 * a click on Text and the search cost; it times the export of 100,000 approved threads from PGlite
 * and the site builds. Progress goes to stderr; the table, then its JSON on one line, to stdout, and
 * everything measured to test-output/bench/catalogue.json. A figure over its budget is marked "over":
 * the benchmark reports, it never fails for it. `--smoke` runs one small size once, writes
 * catalogue-smoke.json and exits 1 when a figure is missing (the bench smoke, `node
 * scripts/bench/run.ts --smoke`, runs the same); `--sizes` picks sizes (see catalogue-options.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import { measureCatalogue } from './catalogue-measure.ts';
import { CATALOGUE_HELP, parseCatalogueOptions, type CatalogueOptions } from './catalogue-options.ts';
import { createProgress, formatTable } from './catalogue-report.ts';
import { killChildren } from './catalogue-site.ts';

const ROOT = path.join(PROJECT_ROOT, 'test-output', 'bench');
const progress = createProgress();

async function main(options: CatalogueOptions): Promise<number> {
  await mkdir(ROOT, { recursive: true });
  if (options.smoke) progress('catalogue: this smoke is also part of node scripts/bench/run.ts --smoke');
  const { report, problems } = await measureCatalogue(options, progress);
  // A smoke run's tiny figures must not replace the latest real report.
  const file = path.join(ROOT, options.smoke ? 'catalogue-smoke.json' : 'catalogue.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  progress(
    `done in ${(report.durationMs / 60_000).toFixed(1)} min; everything measured is in ${path.relative(PROJECT_ROOT, file)}`,
  );
  const { figures, generatedAt, durationMs } = report;
  const over = figures.filter((figure) => figure.verdict === 'over').length;
  console.log(
    `\nCatalogue benchmark (KB = 1,000 bytes; ${over} figure${over === 1 ? '' : 's'} over budget)\n`,
  );
  console.log(formatTable(figures));
  console.log('');
  console.log(JSON.stringify({ generatedAt, durationMs, figures }));
  if (!options.smoke) return 0;
  for (const problem of problems) console.error(`smoke: ${problem}`);
  console.error(problems.length === 0 ? 'smoke: every figure measured' : 'smoke: figures missing');
  return problems.length === 0 ? 0 : 1;
}

// Child processes (servers, the export) must not outlive the benchmark, whatever ends it.
process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killChildren();
    process.exit(130);
  });
}

try {
  const options = parseCatalogueOptions(process.argv.slice(2));
  if (options.help) console.log(CATALOGUE_HELP);
  else process.exitCode = await main(options);
} catch (error) {
  killChildren();
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
}
