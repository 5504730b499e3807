import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client.ts';
import { ensureSchedule } from '../db/job-leases.ts';

export interface ScheduledJob {
  name: string;
  intervalMs: number;
  /** Wait before the first run ever (the due time is then kept in the database across restarts). */
  firstRunAfterMs: number;
  run(): Promise<unknown>;
  /** Runs on every instance on its own timer, without the job lease (work local to the instance). */
  perInstance?: boolean;
  /** Frequent jobs log their runs at debug level only. */
  quiet?: boolean;
}

/** How often each instance asks the database whether a job is due, and how long a run's lease lasts. */
export interface SchedulerTiming {
  /** Average time between ticks; each is jittered by ±50%, so instances do not ask in step. */
  tickMs: number;
  /** A run's lease without a heartbeat: a killed instance's run is taken over after it. */
  leaseMs?: number | undefined;
}

export const DEFAULT_TIMING: SchedulerTiming = { tickMs: 15_000 };

/** The outcome of one run: `ran: false` when another run (on any instance) holds the job's lease. */
export type JobOutcome<T = unknown> = { ran: true; result: T } | { ran: false };

/**
 * Runs a job once, now: under the lease of its name (pushing its next due time one interval from
 * now), or directly when it is per instance. Manual runs (an admin, the CLI) come this way.
 */
export async function runOnce<T>(
  job: {
    name: string;
    perInstance?: boolean | undefined;
    intervalMs?: number | undefined;
    run(): Promise<T>;
  },
  database: Pick<DatabaseHandle, 'withJobLock'>,
  leaseMs?: number,
): Promise<JobOutcome<T>> {
  if (job.perInstance) return { ran: true, result: await job.run() };
  return database.withJobLock(job.name, () => job.run(), { intervalMs: job.intervalMs, leaseMs });
}

/**
 * Runs jobs on their schedule. Shared jobs are due at a time kept in `job_schedules`: every
 * instance ticks and the one whose atomic claim succeeds runs the job, so it runs once per
 * interval across all instances. Per-instance jobs keep a timer of their own. Returns a function
 * that stops the ticks (a run in progress finishes). A failing run is logged and tried again when
 * next due.
 */
export function startScheduler(
  jobs: ScheduledJob[],
  database: DatabaseHandle,
  log: FastifyBaseLogger,
  timing: SchedulerTiming = DEFAULT_TIMING,
): () => void {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const later = (delayMs: number, action: () => void, repeat = false) => {
    const timer = (repeat ? setInterval : setTimeout)(() => {
      if (!repeat) timers.delete(timer);
      action();
    }, delayMs).unref();
    timers.add(timer);
  };
  const report = (job: ScheduledJob) => (outcome: JobOutcome) => {
    if (outcome.ran)
      log[job.quiet ? 'debug' : 'info']({ job: job.name, result: outcome.result }, 'job finished');
  };
  const failed = (job: ScheduledJob) => (error: unknown) =>
    log.error({ job: job.name, err: error }, 'job failed');

  for (const job of jobs.filter((candidate) => candidate.perInstance)) {
    const tick = () => void runOnce(job, database).then(report(job), failed(job));
    // The interval starts with the first run: started together, a job whose first wait equals its
    // interval would run twice in the same tick.
    later(job.firstRunAfterMs, () => {
      tick();
      if (!stopped) later(job.intervalMs, tick, true);
    });
  }

  const shared = jobs.filter((job) => !job.perInstance);
  // A job this instance is running is not asked about again until it ends.
  const running = new Set<string>();
  const claimDue = (job: ScheduledJob) => {
    if (running.has(job.name)) return;
    running.add(job.name);
    database
      .withJobLock(job.name, () => job.run(), {
        onlyWhenDue: true,
        intervalMs: job.intervalMs,
        leaseMs: timing.leaseMs,
        onLeaseLost: () => log.warn({ job: job.name }, 'job lease lost: another instance may run it too'),
      })
      .then(report(job), failed(job))
      .finally(() => running.delete(job.name));
  };
  const tick = () => {
    if (stopped) return;
    for (const job of shared) claimDue(job);
    later(timing.tickMs * (0.5 + Math.random()), tick);
  };
  // Without its rows no job is ever due: say so loudly, and try again a tick later.
  const start = () =>
    void Promise.all(shared.map((job) => ensureSchedule(database.db, job.name, job))).then(
      tick,
      (error: unknown) => {
        log.error({ err: error }, 'job schedules could not be stored');
        if (!stopped) later(timing.tickMs, start);
      },
    );
  start();

  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
