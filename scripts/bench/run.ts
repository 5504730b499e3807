/**
 * `npm run bench`: starts the product and its references one after the other and prints ratios
 * measured in the same run (markdown table, then JSON on one line); both also go to
 * test-output/bench/latest.{md,json} (the scale table also to scale.json). Progress on stderr. Exit 0
 * even when a budget fails (it is a report), 1 when a step broke (or, with --smoke, produced no
 * figures), 2 for a bad option. Every process and temp folder ends with it. `--smoke` (npm test) runs
 * smoke.ts instead: every step and the catalogue and versions benchmarks, small, side by side, into
 * test-output/bench/smoke.{md,json}.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { budgetsOf } from './budgets.ts';
import { createProgress } from './catalogue-report.ts';
import { killChildren } from './catalogue-site.ts';
import { createContext, portsFrom, type StepContext } from './context.ts';
import { HELP, parseOptions, type BenchOptions, type Step } from './options.ts';
import { detectPinning, stopAll, type Pinning } from './processes.ts';
import { RATE_LIMIT_MULTIPLIER } from './product-server.ts';
import { formatJson, formatMarkdown } from './report.ts';
import type { BenchReport, Measured } from './results.ts';
import { BENCH_ROOT } from './sites.ts';
import { measureApi } from './step-api.ts';
import { measureApproval } from './step-approval.ts';
import { measureBuildTime } from './step-build-time.ts';
import { measureJsBytes } from './step-js-bytes.ts';
import { measureLighthouse } from './step-lighthouse.ts';
import { measureNoJs } from './step-no-js.ts';
import { measureScale } from './step-scale.ts';
import { measureStatic } from './step-static.ts';
import { runSmoke, SMOKE_PINNING, smokeExtrasMarkdown } from './smoke.ts';

/** Each step and where its result goes in the report. */
const RUNNERS: Record<Step, (context: StepContext, into: Measured) => Promise<void>> = {
  static: async (context, into) => void (into.static = await measureStatic(context)),
  api: async (context, into) => void (into.api = await measureApi(context)),
  approval: async (context, into) => void (into.approval = await measureApproval(context)),
  lighthouse: async (context, into) => void (into.lighthouse = await measureLighthouse(context)),
  'no-js': async (context, into) => void (into.noJs = await measureNoJs(context)),
  'js-bytes': async (context, into) => void (into.jsBytes = await measureJsBytes(context)),
  'build-time': async (context, into) => void (into.buildTime = await measureBuildTime(context)),
  scale: async (context, into) => void (into.scale = await measureScale(context)),
};

/**
 * Steps that use the live server (the API and approval steps; Lighthouse for its thread page and
 * profile, then stops it itself): it is stopped before any other step.
 */
const LIVE_STEPS: readonly Step[] = ['api', 'approval', 'lighthouse'];

/** Every step of `options`, one after the other, on the fixed ports of a real run. */
async function measureSteps(
  options: BenchOptions,
  pinning: Pinning,
  progress: (message: string) => void,
): Promise<{ measured: Measured; notes: string[]; failures: BenchReport['failures'] }> {
  const context = createContext(options, pinning, progress, portsFrom(options.basePort));
  const measured: Measured = {};
  const failures: BenchReport['failures'] = [];
  try {
    for (const step of options.steps) {
      // The live server holds the product's port: stop it once its steps are done.
      if (!LIVE_STEPS.includes(step)) await context.stopLive();
      progress(`== ${step}`);
      try {
        await RUNNERS[step](context, measured);
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        progress(`${step} broke: ${message}`);
        failures.push({ step, error: message });
      }
    }
  } finally {
    await context.close();
  }
  return { measured, notes: context.notes, failures };
}

async function bench(options: BenchOptions): Promise<BenchReport> {
  const started = performance.now();
  const progress = createProgress();
  const pinning = options.smoke ? SMOKE_PINNING : detectPinning();
  progress(`steps: ${[...options.steps, ...options.extras].join(', ')}; ${pinning.description}`);
  const { measured, notes, failures } = options.smoke
    ? await runSmoke(options, progress)
    : await measureSteps(options, pinning, progress);
  if (options.steps.some((step) => ['static', 'api', 'approval'].includes(step)))
    notes.push(
      `the product runs with RATE_LIMIT_MULTIPLIER=${RATE_LIMIT_MULTIPLIER}, so that load runs measure serving, not the rate limiter`,
    );
  if (options.steps.some((step) => ['static', 'api'].includes(step)))
    notes.push(
      `load: autocannon, 50 connections, Accept-Encoding: br, gzip on static files, ${options.smoke ? 'no warm-up' : 'a warm-up'} then ${options.loadSeconds} s per measurement`,
    );
  const report: Omit<BenchReport, 'budgets'> = {
    generatedAt: new Date().toISOString(),
    durationMs: performance.now() - started,
    machine: { cpus: cpus().length, node: process.version, pinning: pinning.description },
    notes,
    ...measured,
    failures,
  };
  return { ...report, budgets: budgetsOf(report) };
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  if (options.help) {
    console.log(HELP);
    return 0;
  }
  const report = await bench(options);
  const markdown = `${formatMarkdown(report)}${options.smoke ? `\n${smokeExtrasMarkdown(report)}` : ''}`;
  await mkdir(BENCH_ROOT, { recursive: true });
  // A smoke run's tiny figures must not replace the latest real report.
  const name = options.smoke ? 'smoke' : 'latest';
  await writeFile(path.join(BENCH_ROOT, `${name}.md`), markdown);
  await writeFile(path.join(BENCH_ROOT, `${name}.json`), formatJson(report, true));
  if (report.scale && !options.smoke)
    await writeFile(path.join(BENCH_ROOT, 'scale.json'), `${JSON.stringify(report.scale, null, 2)}\n`);
  console.log(`\n${markdown}`);
  // The catalogue smoke's per-page transfers stay in the file: the log's line keeps its figures.
  const { catalogue } = report;
  console.log(formatJson(catalogue ? { ...report, catalogue: { ...catalogue, sizes: {} } } : report));
  console.error(`written to ${path.relative(process.cwd(), BENCH_ROOT)}/${name}.md and ${name}.json`);
  return report.failures.length > 0 ? 1 : 0;
}

// Servers, nginx, Chromium and temp folders must not outlive the benchmark, whatever ends it.
process.on('exit', () => {
  stopAll();
  killChildren();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping every process the benchmark started…\n`);
    stopAll();
    killChildren();
    process.exit(130);
  });
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  stopAll();
  killChildren();
}
