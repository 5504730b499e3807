/**
 * Lighthouse mobile (its default: simulated throttling on a mid-range phone) on one URL, a few
 * times, in Debian's Chromium with the project's flags; the medians of what the budgets read.
 */
import lighthouse from 'lighthouse';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { startTracked, tempDir, type Tracked } from './processes.ts';
import type { LighthouseRun, LighthouseSummary } from './results.ts';
import { median } from './stats.ts';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

export interface Browser {
  port: number;
  stop(): Promise<void>;
}

/** Starts headless Chromium with a DevTools port for Lighthouse to drive. */
export async function startBrowser(port: number): Promise<Browser> {
  const profile = tempDir(`chromium-${port}`);
  const chromium: Tracked = startTracked(CHROMIUM_PATH, [
    ...CHROMIUM_ARGS,
    '--headless=new',
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    'about:blank',
  ]);
  for (let attempt = 0; attempt < 150; attempt++) {
    if (chromium.child.exitCode !== null) throw new Error(`Chromium exited:\n${chromium.output()}`);
    const ready = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { port, stop: () => chromium.stop(5000) };
    await sleep(200);
  }
  await chromium.stop();
  throw new Error(`Chromium did not open its DevTools port ${port}:\n${chromium.output()}`);
}

/** Lighthouse's own word that a run's trace went wrong (NO_NAVSTART, NO_FCP ...): worth running again. */
class RuntimeError extends Error {}

/**
 * The end of the last run asked for: Lighthouse keeps state of its own per process and drives one tab
 * at a time, so runs from steps side by side (the smoke's) wait for each other.
 */
let lastRun: Promise<unknown> = Promise.resolve();

async function runOnce(url: string, browser: Browser): Promise<LighthouseRun> {
  const run = lastRun.then(() =>
    lighthouse(url, { port: browser.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES }),
  );
  lastRun = run.catch(() => undefined);
  const result = await run;
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError)
    throw new RuntimeError(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  const score = (id: string) => Math.round((categories[id]?.score ?? Number.NaN) * 100);
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    tbtMs: numeric('total-blocking-time'),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
  };
}

/** How often one run is tried when Lighthouse reports a runtime error. */
const ATTEMPTS = 3;

/** One run, tried again (at most ATTEMPTS times) when Lighthouse's recording of the trace failed. */
async function runWithRetries(
  url: string,
  browser: Browser,
  progress: (message: string) => void,
): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url, browser);
    } catch (error) {
      if (!(error instanceof RuntimeError) || attempt >= ATTEMPTS) throw error;
      progress(`  ${error.message}; running it again (attempt ${attempt + 1} of ${ATTEMPTS})`);
    }
  }
}

/** The medians of the runs' figures; with `blankRuns` (one per run, in order), the blank page's too. */
function summarize(
  url: string,
  runs: readonly LighthouseRun[],
  blankRuns: readonly LighthouseRun[],
): LighthouseSummary {
  const of = (key: keyof LighthouseRun) => median(runs.map((run) => run[key]));
  const summary: LighthouseSummary = {
    url,
    runs: runs.length,
    performance: of('performance'),
    tbtMs: of('tbtMs'),
    lcpMs: of('lcpMs'),
    cls: of('cls'),
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
    seo: of('seo'),
  };
  if (blankRuns.length === runs.length && runs.length > 0)
    summary.blank = {
      performance: median(blankRuns.map((run) => run.performance)),
      tbtMs: median(blankRuns.map((run) => run.tbtMs)),
      // Paired: each run against the blank run right after it, when the machine was the same.
      tbtOverBlankMs: median(runs.map((run, index) => run.tbtMs - (blankRuns[index]?.tbtMs ?? 0))),
    };
  return summary;
}

/**
 * `runs` Lighthouse runs on `url` (after one warm-up run, not counted, unless `warmUp` is false), and
 * their medians. With `blankUrl`, each run is followed by one on that blank reference page (decision 053).
 */
export async function lighthouseMedians(
  url: string,
  runs: number,
  browser: Browser,
  progress: (message: string) => void,
  warmUp = true,
  blankUrl?: string,
): Promise<LighthouseSummary> {
  if (warmUp) {
    progress(`  Lighthouse warm-up on ${url}…`);
    await runWithRetries(url, browser, progress);
  }
  const results: LighthouseRun[] = [];
  const blanks: LighthouseRun[] = [];
  for (let run = 1; run <= runs; run++) {
    const result = await runWithRetries(url, browser, progress);
    results.push(result);
    const blank = blankUrl ? await runWithRetries(blankUrl, browser, progress) : null;
    if (blank) blanks.push(blank);
    const beside = blank
      ? `; blank page: performance ${blank.performance}, TBT ${Math.round(blank.tbtMs)} ms`
      : '';
    progress(
      `  run ${run}/${runs}: performance ${result.performance}, TBT ${Math.round(result.tbtMs)} ms, LCP ${Math.round(result.lcpMs)} ms${beside}`,
    );
  }
  return summarize(url, results, blanks);
}
