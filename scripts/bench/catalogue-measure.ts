/**
 * The catalogue benchmark's measurement, run by `npm run bench:catalogue` (catalogue.ts) and by the
 * bench smoke (run.ts --smoke): at each size, the site built, served by the real server and measured
 * in Chromium; then the export of the largest size's approved threads from PGlite.
 */
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { freePort } from '../free-port.ts';
import { measurePages } from './catalogue-browser.ts';
import type { ExportResult, InsertResult } from './catalogue-export.ts';
import { toFigures, type SizeResults } from './catalogue-figures.ts';
import type { CatalogueOptions } from './catalogue-options.ts';
import type { Figure, SizeName } from './catalogue-report.ts';
import { killChildren, prepareSite, spawnNode, startServer, timeBuilds } from './catalogue-site.ts';
import { missingTableFigures } from './smoke-check.ts';

type Progress = (message: string) => void;

/** Where a run keeps its sites and export (a smoke run's apart from a real run's). */
function rootOf(options: CatalogueOptions): string {
  return path.join(PROJECT_ROOT, 'test-output', 'bench', options.smoke ? 'catalogue-smoke' : '');
}

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

interface SizeRun {
  browser: Browser;
  name: SizeName;
  count: number;
  now: Date;
  times: number;
  root: string;
  port: number;
  /** Fills the server's fresh DATA_DIR before its start (the smoke: a migrated database). */
  seedData: ((dataDir: string) => Promise<void>) | undefined;
}

async function measureSize(run: SizeRun, results: SizeResults, progress: Progress): Promise<void> {
  const { browser, name, count, now, times, root, port, seedData } = run;
  progress(`catalogue: generating ${thousands(count)} threads and their catalogue…`);
  const site = await prepareSite(path.join(root, name), count, now, port);
  progress(`catalogue: building site (${name}), ${times === 1 ? 'once' : `${times} times`}…`);
  const builds = await timeBuilds(site, times);
  progress(`catalogue: starting the server on port ${port} (${name}): it loads and compresses every file…`);
  await seedData?.(site.dataDir);
  const server = await startServer(site, port);
  if (server.rebuilt)
    progress(`catalogue: warning: the server rebuilt the site (${name}): sources changed meanwhile?`);
  try {
    progress(`catalogue: the home page, a click on Text and searches in Chromium (${name})…`);
    const pages = await measurePages(browser, server.baseUrl, site.build.catalogueDir);
    if (pages.searchError)
      progress(`catalogue: warning: the search could not be measured (${name}): ${pages.searchError}`);
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
    progress(`catalogue: stopping the server (${name})…`);
    await server.stop();
  }
}

async function measureExport(
  root: string,
  count: number,
  progress: Progress,
): Promise<{ insert: InsertResult; exported: ExportResult }> {
  const dir = path.join(root, 'export');
  const script = path.join(PROJECT_ROOT, 'scripts/bench/catalogue-export.ts');
  progress(`catalogue: inserting ${thousands(count)} approved threads into PGlite (not timed)…`);
  const insert = await runHelper<InsertResult>([script, 'insert', dir, String(count)]);
  progress(`catalogue: exporting ${thousands(count)} approved threads, cold then warm…`);
  const exported = await runHelper<ExportResult>([script, 'export', dir]);
  if (exported.approved !== count) progress(`warning: ${exported.approved} approved threads exported`);
  if (exported.warm.dataChanged) progress('warning: the warm export changed data files');
  return { insert, exported };
}

/** Everything one run measured (catalogue.json, or the smoke's report). */
export interface CatalogueReport {
  generatedAt: string;
  durationMs: number;
  machine: { node: string; cpus: number };
  figures: Figure[];
  sizes: SizeResults;
  export: { insert: InsertResult; exported: ExportResult } | undefined;
}

/**
 * Measures each size of `options`, then the export at the largest; `problems` names every figure
 * left unmeasured and every failed search (what fails a smoke run). `port`: the servers' port
 * (default: one free at each size's start); `seedData`: see SizeRun.
 */
export async function measureCatalogue(
  options: CatalogueOptions,
  progress: Progress,
  { port, seedData }: { port?: number; seedData?: (dataDir: string) => Promise<void> } = {},
): Promise<{ report: CatalogueReport; problems: string[] }> {
  const started = performance.now();
  const root = rootOf(options);
  await mkdir(root, { recursive: true });
  const now = new Date();
  const results: SizeResults = {};
  // The export runs at the largest size measured (sizes come smallest first).
  const exportSize = options.sizes.at(-1) ?? '100k';
  let exportRun: CatalogueReport['export'];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const name of options.sizes) {
      const size = { browser, name, count: options.counts[name], now, times: options.builds, root, seedData };
      await measureSize({ ...size, port: port ?? (await freePort()) }, results, progress);
    }
    exportRun = await measureExport(root, options.counts[exportSize], progress);
  } finally {
    await browser.close();
    killChildren();
  }
  const figures = toFigures(results, exportRun?.exported ?? null, exportSize);
  const report: CatalogueReport = {
    generatedAt: new Date().toISOString(),
    durationMs: performance.now() - started,
    machine: { node: process.version, cpus: cpus().length },
    figures,
    sizes: results,
    export: exportRun,
  };
  const problems = [
    ...missingTableFigures(figures),
    ...Object.entries(results)
      .filter(([, result]) => result.pages.searchError !== null)
      .map(([size, result]) => `the search (${size}) failed: ${result.pages.searchError}`),
  ];
  return { report, problems };
}
