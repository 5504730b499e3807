import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { JOBS, runJob, type Job, type JobContext, type JobName, type JobResult } from '../jobs/index.ts';
import { DEFAULT_TIMING, startScheduler, type JobOutcome, type SchedulerTiming } from '../jobs/scheduler.ts';
import type { RunTrigger } from '../repositories/curation-runs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs a job now under its lease (an admin's "Refresh now", the CLI); see jobs/index.ts. */
    runJob<N extends JobName>(name: N, trigger: RunTrigger): Promise<JobOutcome<JobResult<N>>>;
    /** Publishes due generated posts now (under its lease); the scheduler also runs it every minute. */
    publishGeneratedPosts(): Promise<JobOutcome<JobResult<'publish-generated-posts'>>>;
  }
}

export interface SchedulerOptions {
  config: Config;
  tokenKey: Buffer;
  /** Run the jobs on their timers; tests and the CLI run them only when asked. */
  schedule: boolean;
  /** Where progress lines go; by default the app's log. */
  progress?: JobContext['progress'];
  /** How often instances ask whether a job is due, the lease, and jobs' own timing (tests shorten them). */
  timing?: JobTiming | undefined;
}

export interface JobTiming extends Partial<SchedulerTiming> {
  /** Instead of a job's own interval (the configured one for curation) and first wait. */
  jobs?: Partial<Record<JobName, { intervalMs?: number; firstRunAfterMs?: number }>>;
}

/**
 * The jobs of jobs/index.ts, with their context taken from the app's plugins (database, Threads
 * gateway, content changes, site publisher). With `schedule` each instance ticks from onReady
 * until the app starts closing, and runs a shared job when its claim of a due run succeeds.
 */
const scheduler: FastifyPluginAsync<SchedulerOptions> = async (app, options) => {
  const ctx: JobContext = {
    config: options.config,
    database: app.database,
    gateway: app.threads.gateway,
    tokenKey: options.tokenKey,
    log: app.log,
    contentChanged: (change) => app.contentChanged(change),
    // Looked up when the job runs: the publisher is registered after the scheduler (and not at all
    // by the CLI's one-off runs, which publish nothing).
    requestSitePublish: () => {
      if (app.hasDecorator('publisher')) app.publisher.request();
    },
    progress: options.progress ?? ((job, line) => app.log.info({ job }, line)),
  };
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const manual = (name: JobName) => ({
    intervalMs: timing.jobs?.[name]?.intervalMs,
    leaseMs: timing.leaseMs,
  });
  app.decorate('runJob', <N extends JobName>(name: N, trigger: RunTrigger) =>
    runJob(name, ctx, trigger, manual(name)),
  );
  app.decorate('publishGeneratedPosts', () =>
    runJob('publish-generated-posts', ctx, 'schedule', manual('publish-generated-posts')),
  );
  if (!options.schedule) return;

  // Registered before the site publisher's close: on shutdown no new job starts while a build finishes.
  let stop = () => {};
  app.addHook('onReady', async () => {
    // A job off in this configuration (backups on PostgreSQL, or BACKUP_INTERVAL_HOURS=0) never ticks.
    const scheduled = JOBS.filter((job: Job) => job.enabled?.(ctx) ?? true).map((job) => ({
      ...job,
      intervalMs: job.interval(options.config),
      ...timing.jobs?.[job.name],
      run: () => job.run(ctx, 'schedule'),
    }));
    stop = startScheduler(scheduled, app.database, app.log, timing);
  });
  app.addHook('preClose', async () => stop());
};

export default fp(scheduler, {
  name: 'scheduler',
  dependencies: ['database', 'threads-gateway', 'content-changes'],
});
