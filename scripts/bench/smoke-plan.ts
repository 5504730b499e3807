/**
 * What `node scripts/bench/run.ts --smoke` (npm test) skips or shrinks against the full benchmarks,
 * and why each code path is still run: printed at the smoke's start, so that a reader of CI's log
 * knows what its figures are not (decision 072).
 */

/** One measurement the smoke skips or shrinks. */
export interface SmokeShrink {
  /** The step (or the other benchmark) it belongs to. */
  step: string;
  /** What the full run does. */
  full: string;
  /** What the smoke does instead. */
  smoke: string;
  /** Why the code path is still covered. */
  why: string;
}

export const SMOKE_PLAN: readonly SmokeShrink[] = [
  {
    step: 'static, api',
    full: '10 s of load per measurement, after a warm-up',
    smoke: '1 s, no warm-up',
    why: 'autocannon runs against the same servers and paths; only the figure is noisier',
  },
  {
    step: 'static, lighthouse, no-js, js-bytes',
    full: 'the 1,000-thread site (and 100,000 for Lighthouse home)',
    smoke: 'a 100-thread site',
    why: "the same cached-site code and server; below the large catalogue's search needle (thread 942) it is the same generator without the needle, which no bench step searches",
  },
  {
    step: 'lighthouse, no-js',
    full: '5 runs per page after a warm-up, each beside the blank page',
    smoke: '1 run, no warm-up; the blank page beside the first audited page only',
    why: 'each run is the same Lighthouse call; the blank-page pairing runs once',
  },
  {
    step: 'lighthouse',
    full: 'audits the largest topic page',
    smoke: 'finds it (largestTopicPath) and checks it is served; no audit',
    why: 'the audit is the same call as home on the same server',
  },
  {
    step: 'lighthouse',
    full: 'audits home and the profile on the live server (cards)',
    smoke: 'audits the thread page only; the profile is still rendered and found (approvedProfilePath)',
    why: "home is audited on the cached site; the live server's approvals and the profile's wait still run",
  },
  {
    step: 'lighthouse',
    full: "audits home and the thread page shown through Threads' embed",
    smoke: 'audits the thread page only',
    why: 'the restart with PUBLIC_POST_DISPLAY=embed and the wait for embedded cards still run',
  },
  {
    step: 'approval',
    full: 'median of 3 approvals',
    smoke: '1 approval',
    why: 'the same approve-and-poll loop',
  },
  {
    step: 'build-time',
    full: 'fresh builds at 1,000 and 10,000 threads, two rounds',
    smoke: '100 and 200 threads, one round',
    why: 'the same buildSite calls and marginal arithmetic',
  },
  {
    step: 'scale',
    full: '1,000 and 100,000 approved threads, 3 approvals each',
    smoke: '100 threads, 1 approval',
    why: 'insert, export in its own process, two server starts and the approval all run',
  },
  {
    step: 'catalogue (bench:catalogue)',
    full: '1,000 and 100,000 threads, two builds each, export of 100,000',
    smoke: '100 threads (in the 1k column), one build, export of 100',
    why: 'the same build, server, Chromium page figures, searches and export',
  },
  {
    step: 'catalogue (bench:catalogue)',
    full: "server start-up from an empty DATA_DIR (PGlite's initdb and every migration)",
    smoke: "its server starts on a copy of the run's one migrated database",
    why: 'the start, the check of the catalogue and the loading and compressing of the site still run',
  },
  {
    step: 'versions (bench:versions)',
    full: '1,000, 10,000 and 100,000 files, 5 changes',
    smoke: '20 and 200 files, one change',
    why: 'record, layout, catch-up and prune all run; the change must still write its 14 files',
  },
  {
    step: 'every step',
    full: 'one after the other; servers pinned to core 0, the load generator to core 1',
    smoke: 'in two lanes side by side, unpinned; Lighthouse runs wait for each other',
    why: 'the figures of a smoke are not read (its check is that each exists); the code paths are the same',
  },
];

/** The plan as progress lines. */
export function smokePlanLines(plan: readonly SmokeShrink[] = SMOKE_PLAN): string[] {
  return [
    'smoke: what it shrinks or skips, and why each path is still covered:',
    ...plan.map(({ step, full, smoke, why }) => `  ${step}: ${smoke} (full: ${full}); ${why}`),
  ];
}
