/**
 * `npm run bench:catalogue`: proves the paged catalogue scales. At 1,000 and 100,000 synthetic threads
 * it builds the site, serves it with the real server and measures in Chromium what the home page,
 * a click on Text and the search cost; it times the export of 100,000 approved threads from PGlite
 * and the site builds. Progress goes to stderr; the table, then its JSON on one line, to stdout, and
 * everything measured to test-output/bench/catalogue.json. A figure over its budget is marked "over":
 * the benchmark reports, it never fails for it. `--smoke` (npm test) runs the 1k size once and exits 1
 * when a figure is missing; `--sizes` picks sizes (see catalogue-options.ts).
 */
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { freePort } from '../free-port.ts';
import { measurePages } from './catalogue-browser.ts';
import type { ExportResult, InsertResult } from './catalogue-export.ts';
import { toFigures, type SizeResults } from './catalogue-figures.ts';
import { CATALOGUE_HELP, parseCatalogueOptions, type CatalogueOptions } from './catalogue-options.ts';
import { createProgress, formatTable, SIZES, type SizeName } from './catalogue-report.ts';
import { killChildren, prepareSite, spawnNode, startServer, timeBuilds } from './catalogue-site.ts';
import { missingTableFigures } from './smoke-check.ts';

const ROOT = path.join(PROJECT_ROOT, 'test-output', 'bench');
const progress = createProgress();

/** Runs a helper script to its end and parses the JSON line it prints last. */
async function runHelper<T>(args: string[]): Promise<T> {
  const child = spawnNode(args, process.env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${stderr.slice(-3000)}`);
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as T;
}

function thousands(count: number): string {
  return count.toLocaleString('en-US');
}

async function measureSize(
  browser: Browser,
  name: SizeName,
  now: Date,
  results: SizeResults,
  times: number,
): Promise<void> {
  const count = SIZES[name];
  const port = await freePort();
  progress(`generating ${thousands(count)} threads and their catalogue…`);
  const site = await prepareSite(path.join(ROOT, name), count, now, port);
  progress(`building site (${name}), ${times === 1 ? 'once' : `${times} times`}…`);
  const builds = await timeBuilds(site, times);
  progress(`starting the server on port ${port} (${name}): it loads and compresses every file…`);
  const server = await startServer(site, port);
  if (server.rebuilt) progress(`warning: the server rebuilt the site (${name}): sources changed meanwhile?`);
  try {
    progress(`measuring the home page, a click on Text and searches in Chromium (${name})…`);
    const pages = await measurePages(browser, server.baseUrl, site.build.catalogueDir);
    if (pages.searchError)
      progress(`warning: the search could not be measured (${name}): ${pages.searchError}`);
    results[name] = {
      count,
      buildMs: Math.min(...builds),
      builds,
      serverMemory: await server.memory(),
      serverStartMs: server.startMs,
      serverRebuilt: server.rebuilt,
      pages,
    };
  } finally {
    progress(`stopping the server (${name})…`);
    await server.stop();
  }
}

async function measureExport(count: number): Promise<{ insert: InsertResult; exported: ExportResult }> {
  const dir = path.join(ROOT, 'export');
  const script = path.join(PROJECT_ROOT, 'scripts/bench/catalogue-export.ts');
  progress(`inserting ${thousands(count)} approved threads into PGlite (not timed)…`);
  const insert = await runHelper<InsertResult>([script, 'insert', dir, String(count)]);
  progress(`exporting ${thousands(count)} approved threads, cold then warm…`);
  const exported = await runHelper<ExportResult>([script, 'export', dir]);
  if (exported.approved !== count) progress(`warning: ${exported.approved} approved threads exported`);
  if (exported.warm.dataChanged) progress('warning: the warm export changed data files');
  return { insert, exported };
}

async function main(options: CatalogueOptions): Promise<number> {
  const started = performance.now();
  await mkdir(ROOT, { recursive: true });
  const now = new Date();
  const results: SizeResults = {};
  // The export runs at the largest size measured (sizes come smallest first).
  const exportSize = options.sizes.at(-1) ?? '100k';
  let exportRun: Awaited<ReturnType<typeof measureExport>> | undefined;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  try {
    for (const name of options.sizes) await measureSize(browser, name, now, results, options.builds);
    exportRun = await measureExport(SIZES[exportSize]);
  } finally {
    await browser.close();
    killChildren();
  }

  const figures = toFigures(results, exportRun?.exported ?? null, exportSize);
  const durationMs = performance.now() - started;
  const report = {
    generatedAt: new Date().toISOString(),
    durationMs,
    machine: { node: process.version, cpus: cpus().length },
    figures,
    sizes: results,
    export: exportRun,
  };
  const file = path.join(ROOT, 'catalogue.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  progress(
    `done in ${(durationMs / 60_000).toFixed(1)} min; everything measured is in ${path.relative(PROJECT_ROOT, file)}`,
  );
  const over = figures.filter((figure) => figure.verdict === 'over').length;
  console.log(
    `\nCatalogue benchmark (KB = 1,000 bytes; ${over} figure${over === 1 ? '' : 's'} over budget)\n`,
  );
  console.log(formatTable(figures));
  console.log('');
  console.log(JSON.stringify({ generatedAt: report.generatedAt, durationMs, figures }));
  if (!options.smoke) return 0;
  const missing = [
    ...missingTableFigures(figures),
    ...Object.entries(results)
      .filter(([, result]) => result.pages.searchError !== null)
      .map(([size, result]) => `the search (${size}) failed: ${result.pages.searchError}`),
  ];
  for (const problem of missing) console.error(`smoke: ${problem}`);
  console.error(missing.length === 0 ? 'smoke: every figure measured' : 'smoke: figures missing');
  return missing.length === 0 ? 0 : 1;
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
