/** `npm run bench` options: which steps to run and how long to load each server. */

/** The steps, in the order they run. */
export const STEPS = [
  'static',
  'api',
  'approval',
  'lighthouse',
  'no-js',
  'js-bytes',
  'build-time',
  'scale',
] as const;
export type Step = (typeof STEPS)[number];

/**
 * The other benchmarks' smokes, which `--smoke` runs too (their full runs are `npm run
 * bench:catalogue` and `bench:versions`, not steps of `npm run bench`).
 */
export const SMOKE_EXTRAS = ['catalogue', 'versions'] as const;
export type SmokeExtra = (typeof SMOKE_EXTRAS)[number];

export interface BenchOptions {
  help: boolean;
  steps: Step[];
  /** Seconds of load per measurement (after a warm-up of a third of it). */
  loadSeconds: number;
  /** Lighthouse runs per page (the median is reported). */
  lighthouseRuns: number;
  /** The larger catalogue of the build-time step (the smaller one is 1,000 threads). */
  buildCount: number;
  /** First of ten ports the benchmark listens on (smoke: free ports picked at start instead). */
  basePort: number;
  /** The site of the static, no-js and js-bytes steps, and the smaller of build-time, in threads. */
  siteCount: number;
  /** The sites Lighthouse runs on, in threads. */
  lighthouseCounts: number[];
  /** Rounds of build-time (each builds both sizes; the quicker run of each counts). */
  buildRounds: number;
  /** Approvals timed by the approval step and at each size of the scale step (median). */
  approvals: number;
  /** Approved threads of the scale step's databases. */
  scaleCounts: number[];
  /** Every step once, tiny, then a check that each produced its figures (npm test runs it). */
  smoke: boolean;
  /** The other benchmarks' smokes to run as well (smoke only: all of them unless --only names some). */
  extras: SmokeExtra[];
}

/** The scale step's sizes, and the one `--million` adds. */
export const SCALE_COUNTS = [1000, 100_000];
export const MILLION = 1_000_000;

/** What `--smoke` runs: every step's code path, about a second each, on the smallest inputs (smoke-plan.ts). */
const SMOKE = {
  loadSeconds: 1,
  lighthouseRuns: 1,
  // Several pages of the grid and topics with threads; its cached site (test-output/bench/site-100,
  // built for the smoke's own port) stays apart from the real 1k one.
  siteCount: 100,
  lighthouseCounts: [100],
  buildCount: 200,
  buildRounds: 1,
  approvals: 1,
  scaleCounts: [100],
  smoke: true,
};

export const HELP = `npm run bench [-- options]

Starts the product and its references, one after the other, and prints what it measured as a
markdown table (also test-output/bench/latest.md), then as JSON (also test-output/bench/latest.json).
Progress goes to stderr. Exit 0 even when a budget fails (it is a report); non-zero when a step breaks.

Options:
  --only LIST        comma-separated steps to run (default: all):
                       static      static files (small, home, largest JS) vs nginx on the same dist
                       api         hot API reads vs a bare Fastify route, 50 connections
                       approval    approval-to-visible time on a running server
                       lighthouse  Lighthouse mobile on home, 1k and 100k threads (median of runs);
                                   at 1k only the largest topic; a thread page and a profile
                                   on the live server (its database holds them)
                       no-js       home's LCP vs the same HTML without scripts served by nginx
                       js-bytes    JavaScript each built page loads, raw and brotli
                       build-time  marginal build seconds per 1,000 threads
                       scale       at 1k and 100k approved threads: memory added by the export,
                                   approval to visible, server start-up and idle RSS
  --load-seconds N   seconds of load per measurement (default 10)
  --runs N           Lighthouse runs per page (default 5)
  --build-count N    the larger catalogue of build-time, in threads (default 10000)
  --port N           first of the ten ports it listens on (default: $BENCH_PORT or 4900)
  --million          the scale step also at 1,000,000 approved threads (long: inserting them
                     into PGlite alone takes a while; needs several GB of memory today)
  --smoke            every step once on small inputs (1 s of load, one Lighthouse run per
                     page kind, 100 threads), side by side on free ports, and the smokes of
                     bench:catalogue and bench:versions (--only may name them: catalogue,
                     versions); prints what it shrinks and why; exit 1 unless every step
                     produced its figures
  --help             this text
`;

function positiveInteger(name: string, value: string | undefined): number {
  const number = Number(value);
  if (!value || !Number.isInteger(number) || number < 1) throw new Error(`${name} needs a whole number >= 1`);
  return number;
}

/** Parses the command line (after `--`); throws with a message for anything it does not know. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = {}): BenchOptions {
  const options: BenchOptions = {
    help: false,
    steps: [...STEPS],
    loadSeconds: 10,
    lighthouseRuns: 5,
    buildCount: 10_000,
    basePort: env.BENCH_PORT ? positiveInteger('BENCH_PORT', env.BENCH_PORT) : 4900,
    siteCount: 1000,
    lighthouseCounts: [1000, 100_000],
    buildRounds: 2,
    approvals: 3,
    scaleCounts: [...SCALE_COUNTS],
    smoke: false,
    extras: [],
  };
  let million = false;
  let extras: SmokeExtra[] | null = null;
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = (argv[index] ?? '').split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++index];
    switch (flag) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--only': {
        const names = (value() ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        const known: readonly string[] = [...STEPS, ...SMOKE_EXTRAS];
        const unknown = names.filter((name) => !known.includes(name));
        if (names.length === 0 || unknown.length > 0)
          throw new Error(
            `--only takes steps among ${known.join(', ')}; not ${unknown.join(', ') || 'nothing'}`,
          );
        // Always in the order they run, whatever order they were named in.
        options.steps = STEPS.filter((step) => names.includes(step));
        extras = SMOKE_EXTRAS.filter((extra) => names.includes(extra));
        break;
      }
      case '--load-seconds':
        options.loadSeconds = positiveInteger(flag, value());
        break;
      case '--runs':
        options.lighthouseRuns = positiveInteger(flag, value());
        break;
      case '--build-count':
        options.buildCount = positiveInteger(flag, value());
        if (options.buildCount <= 1000) throw new Error('--build-count must be more than 1000');
        break;
      case '--port':
        options.basePort = positiveInteger(flag, value());
        break;
      case '--million':
        million = true;
        break;
      case '--smoke':
        options.smoke = true;
        break;
      default:
        throw new Error(`unknown option ${flag} (see npm run bench -- --help)`);
    }
  }
  if (options.basePort + 9 > 65535) throw new Error('--port leaves no room for ten ports');
  if (options.smoke && million) throw new Error('--smoke and --million do not go together');
  if (million) options.scaleCounts.push(MILLION);
  if (!options.smoke && extras && extras.length > 0)
    throw new Error(
      `${extras.join(', ')}: only with --smoke (their full runs: npm run bench:catalogue, npm run bench:versions)`,
    );
  // The smoke's sizes win over the numbers given: it is the quick pass, whatever else was asked.
  return options.smoke ? { ...options, ...SMOKE, extras: extras ?? [...SMOKE_EXTRAS] } : options;
}
