import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client.ts';

export interface ScheduledJob {
  name: string;
  intervalMs: number;
  /** Wait before the first run, so a restart does not stampede Threads. */
  firstRunAfterMs: number;
  run(): Promise<unknown>;
  /** Runs on every instance, without the job lock (work local to the instance). */
  perInstance?: boolean;
  /** Frequent jobs log their runs at debug level only. */
  quiet?: boolean;
}

/** The outcome of one run: `ran: false` when another instance holds the job's lock. */
export type JobOutcome<T = unknown> = { ran: true; result: T } | { ran: false };

/** Runs a job once: under the database's job lock of its name, or directly when it is per instance. */
export async function runOnce<T>(
  job: { name: string; perInstance?: boolean | undefined; run(): Promise<T> },
  database: Pick<DatabaseHandle, 'withJobLock'>,
): Promise<JobOutcome<T>> {
  if (job.perInstance) return { ran: true, result: await job.run() };
  return database.withJobLock(job.name, () => job.run());
}

/**
 * Runs jobs on a timer, each under the database's job lock (one instance at a time on PostgreSQL).
 * Returns a function that stops the timers. A failing run is logged and tried again next time.
 */
export function startScheduler(
  jobs: ScheduledJob[],
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): () => void {
  const timers: NodeJS.Timeout[] = [];
  for (const job of jobs) {
    const tick = () => {
      runOnce(job, database).then(
        (outcome) => {
          const level = job.quiet ? 'debug' : 'info';
          if (outcome.ran) log[level]({ job: job.name, result: outcome.result }, 'job finished');
          else log[level]({ job: job.name }, 'job skipped: another instance is running it');
        },
        (error: unknown) => log.error({ job: job.name, err: error }, 'job failed'),
      );
    };
    // The interval starts with the first run: started together, a job whose first wait equals its
    // interval would run twice in the same tick.
    timers.push(
      setTimeout(() => {
        tick();
        timers.push(setInterval(tick, job.intervalMs).unref());
      }, job.firstRunAfterMs).unref(),
    );
  }
  return () => timers.forEach((timer) => clearTimeout(timer));
}
