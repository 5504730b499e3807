/**
 * The smoke run of `node scripts/bench/run.ts --smoke` (npm test): every step of `npm run bench` and
 * the catalogue and versions benchmarks once, small, in lanes side by side (each lane's steps one
 * after the other, on ports of its own), then a check that each left its figures (decision 072).
 */
import { measureCatalogue } from './catalogue-measure.ts';
import { copyMigratedInto, prepareMigrated } from './migrated-data.ts';
import { SMOKE_CATALOGUE_THREADS } from './catalogue-options.ts';
import { formatTable, SIZES } from './catalogue-report.ts';
import { createContext, freePorts, type StepContext } from './context.ts';
import type { BenchOptions, SmokeExtra, Step } from './options.ts';
import type { Pinning } from './processes.ts';
import type { BenchReport, LighthousePage, LighthouseResult, Measured } from './results.ts';
import { missingFigures } from './smoke-check.ts';
import { smokePlanLines } from './smoke-plan.ts';
import { measureApi } from './step-api.ts';
import { measureApproval } from './step-approval.ts';
import { measureBuildTime } from './step-build-time.ts';
import { lighthouseLive, lighthouseSites } from './step-lighthouse.ts';
import { measureJsBytes } from './step-js-bytes.ts';
import { measureNoJs } from './step-no-js.ts';
import { measureScale } from './step-scale.ts';
import { measureStatic } from './step-static.ts';
import { measureVersions, versionsPlan, versionsTable } from './versions-measure.ts';

/** Unpinned: pinned, every lane's servers would share core 0. */
export const SMOKE_PINNING: Pinning = {
  serverCore: null,
  loadCore: null,
  description: 'not pinned (smoke: its steps run side by side)',
};

/** What a smoke's tasks leave: the report's results, Lighthouse's halves, the extras' problems. */
export interface SmokeResults {
  measured: Measured;
  lighthouseLive?: LighthousePage[];
  lighthouseSites?: LighthouseResult;
  problems: Map<SmokeExtra, string[]>;
}

/** A part of the smoke: a step, a half of the Lighthouse step, or another benchmark's smoke. */
interface Task {
  step: Step | SmokeExtra;
  /** It uses the lane's live server (started by the first such task, stopped before any other). */
  live?: boolean;
  run(context: StepContext, into: SmokeResults): Promise<void>;
}

const TASKS = {
  api: { step: 'api', live: true, run: async (c, into) => void (into.measured.api = await measureApi(c)) },
  approval: {
    step: 'approval',
    live: true,
    run: async (c, into) => void (into.measured.approval = await measureApproval(c)),
  },
  lighthouseLive: {
    step: 'lighthouse',
    live: true,
    run: async (c, into) => void (into.lighthouseLive = await lighthouseLive(c)),
  },
  static: { step: 'static', run: async (c, into) => void (into.measured.static = await measureStatic(c)) },
  lighthouseSites: {
    step: 'lighthouse',
    run: async (c, into) => void (into.lighthouseSites = await lighthouseSites(c)),
  },
  noJs: { step: 'no-js', run: async (c, into) => void (into.measured.noJs = await measureNoJs(c)) },
  jsBytes: {
    step: 'js-bytes',
    run: async (c, into) => void (into.measured.jsBytes = await measureJsBytes(c)),
  },
  buildTime: {
    step: 'build-time',
    run: async (c, into) => void (into.measured.buildTime = await measureBuildTime(c)),
  },
  scale: { step: 'scale', run: async (c, into) => void (into.measured.scale = await measureScale(c)) },
  catalogue: {
    step: 'catalogue',
    async run(c, into) {
      const options = { help: false, sizes: ['1k' as const], builds: 1, smoke: true };
      const counts = { ...SIZES, '1k': SMOKE_CATALOGUE_THREADS };
      const { report, problems } = await measureCatalogue({ ...options, counts }, c.progress, {
        port: c.port('product'),
        // Its server's start-up is a figure of the full run only: the smoke skips initdb and migrations.
        seedData: copyMigratedInto,
      });
      into.measured.catalogue = report;
      into.problems.set('catalogue', problems);
    },
  },
  versions: {
    step: 'versions',
    async run(c, into) {
      // On PostgreSQL when DATABASE_URL is set, as `npm run bench:versions -- --smoke` runs.
      const plan = versionsPlan({ smoke: true });
      const { report, problems } = await measureVersions(plan, c.progress, process.env.DATABASE_URL);
      into.measured.versions = report;
      into.problems.set('versions', problems);
    },
  },
} satisfies Record<string, Task>;

/**
 * Two lanes, as many as the cores of CI's machine (more only made every build and server start
 * slower): the live server's steps (its approvals, renders and restart set the pace), then the
 * other benchmarks; and the cached site's (Lighthouse's home on it, then no-js, which reuses that
 * run), then the builds. Within a lane, the order of `npm run bench`.
 */
const LANES: readonly (readonly Task[])[] = [
  [TASKS.api, TASKS.approval, TASKS.lighthouseLive, TASKS.catalogue, TASKS.versions],
  [TASKS.static, TASKS.lighthouseSites, TASKS.noJs, TASKS.jsBytes, TASKS.buildTime, TASKS.scale],
];

async function runLane(
  tasks: readonly Task[],
  context: StepContext,
  into: SmokeResults,
  failures: BenchReport['failures'],
): Promise<void> {
  try {
    for (const task of tasks) {
      // The live server holds the lane's product port: stop it once its steps are done.
      if (!task.live) await context.stopLive();
      context.progress(`== ${task.step}`);
      try {
        await task.run(context, into);
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        context.progress(`${task.step} broke: ${message}`);
        failures.push({ step: task.step, error: message });
      }
    }
  } finally {
    // Its live server only: the browser is shared, closed once every lane is done.
    await context.stopLive();
  }
}

/** Where each step's result is in the report. */
const RESULT_KEYS: Record<Step, keyof Measured> = {
  static: 'static',
  api: 'api',
  approval: 'approval',
  lighthouse: 'lighthouse',
  'no-js': 'noJs',
  'js-bytes': 'jsBytes',
  'build-time': 'buildTime',
  scale: 'scale',
};

/** What each step that did not break left unmeasured: every figure, the extras' own checks. */
export function smokeProblems(
  options: Pick<BenchOptions, 'steps' | 'extras'>,
  results: SmokeResults,
  broken: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  for (const step of [...options.steps, ...options.extras]) {
    if (broken.has(step)) continue;
    const missing =
      step === 'catalogue' || step === 'versions'
        ? (results.problems.get(step) ?? [`${step} left no result`])
        : missingFigures(results.measured[RESULT_KEYS[step]], RESULT_KEYS[step]);
    problems.push(...missing.map((problem) => `${step}: ${problem}`));
  }
  return problems;
}

/**
 * Runs the smoke: the steps and extras `options` names, in their lanes side by side; returns what
 * they measured, the lanes' notes and a failure for each step that broke or left a figure missing.
 */
export async function runSmoke(
  options: BenchOptions,
  progress: (message: string) => void,
): Promise<{ measured: Measured; notes: string[]; failures: BenchReport['failures'] }> {
  for (const line of smokePlanLines()) progress(line);
  prepareMigrated();
  const wanted = new Set<string>([...options.steps, ...options.extras]);
  const lanes = LANES.map((lane) => lane.filter((task) => wanted.has(task.step))).filter(
    (lane) => lane.length > 0,
  );
  const taken = new Set<number>();
  const contexts: StepContext[] = [];
  for (const [index, lane] of lanes.entries()) {
    const ports = await freePorts(taken);
    const laneProgress = (message: string) => progress(`[lane ${index + 1}] ${message}`);
    const context = createContext(options, SMOKE_PINNING, laneProgress, ports);
    // One Chromium and one blank page for every lane's Lighthouse runs, which wait for each other.
    const first = contexts[0];
    contexts.push(first ? { ...context, browser: first.browser, blankPage: first.blankPage } : context);
    progress(
      `smoke: lane ${index + 1}: ${lane.map((task) => task.step).join(', ')}; ports ${Object.values(ports).join(', ')}`,
    );
  }
  const results: SmokeResults = { measured: {}, problems: new Map() };
  const failures: BenchReport['failures'] = [];
  try {
    await Promise.all(
      lanes.map((lane, index) => runLane(lane, contexts[index] as StepContext, results, failures)),
    );
  } finally {
    // The first lane's context owns the shared browser.
    for (const context of contexts) await context.close();
  }
  if (results.lighthouseLive && results.lighthouseSites)
    results.measured.lighthouse = {
      sizes: results.lighthouseSites.sizes,
      pages: [...results.lighthouseSites.pages, ...results.lighthouseLive],
    };
  const problems = smokeProblems(options, results, new Set(failures.map((failure) => failure.step)));
  for (const problem of problems) progress(`smoke: ${problem}`);
  if (problems.length === 0) progress('smoke: every step produced its figures');
  failures.push(...problems.map((error) => ({ step: error.split(':')[0] ?? '', error })));
  return { measured: results.measured, notes: contexts.flatMap((context) => context.notes), failures };
}

/** The catalogue and versions smokes' tables, for the end of the smoke's markdown report. */
export function smokeExtrasMarkdown(report: Pick<BenchReport, 'catalogue' | 'versions'>): string {
  const out: string[] = [];
  if (report.catalogue)
    out.push(
      `### Catalogue benchmark smoke (${SMOKE_CATALOGUE_THREADS} threads in the 1k column)`,
      '',
      '```',
      formatTable(report.catalogue.figures),
      '```',
      '',
    );
  if (report.versions) out.push('### Versions benchmark smoke', '', versionsTable(report.versions.sizes), '');
  return out.join('\n');
}
