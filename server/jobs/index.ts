import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { RunTrigger } from '../repositories/curation-runs.ts';
import { createSessionsRepository } from '../repositories/sessions.ts';
import { backUp } from '../services/backups/back-up.ts';
import type { ContentChange } from '../services/content-change.ts';
import { runCuration } from '../services/curation/curate.ts';
import { publishDueDigest } from '../services/digest/publish-digest.ts';
import { sendQueuedMail } from '../services/mail/send-queued.ts';
import { smtpTransport } from '../services/mail/transport.ts';
import { refreshExpiringPictures } from '../services/pictures/picture-refresh.ts';
import { publishGeneratedPosts } from '../services/publishing/publish-generated-posts.ts';
import { refreshDueTokens } from '../services/tokens/refresh-tokens.ts';
import type { ThreadsGateway } from '../threads/gateway.ts';
import { runOnce, type JobOutcome } from './scheduler.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How often every instance exports the catalogue and rebuilds when it changed elsewhere. */
export const SITE_PUBLISH_INTERVAL_MS = 5 * MINUTE;

/** What a job may use: services' dependencies, never the Fastify app. */
export interface JobContext {
  config: Config;
  database: DatabaseHandle;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
  log: FastifyBaseLogger;
  /** Announces a committed change to public content (the server's caches and site publisher listen). */
  contentChanged(change: ContentChange): void;
  /** Asks this instance to export the catalogue and rebuild its site when they changed. */
  requestSitePublish(): void;
  /** Progress lines of a long run (the CLI prints them; the server logs them). */
  progress(job: string, line: string): void;
}

export interface Job {
  name: string;
  /** Time between runs; the curation interval is a setting. */
  interval(config: Config): number;
  /**
   * Wait before the first run on a new database (the due time is then stored), so a first start
   * does not stampede Threads.
   */
  firstRunAfterMs: number;
  /** Runs on every instance on its own timer, without the lease (work local to the instance). */
  perInstance?: boolean;
  /** Frequent jobs log their runs at debug level only. */
  quiet?: boolean;
  /** Whether the job is scheduled at all in this configuration (default: yes). */
  enabled?(ctx: JobContext): boolean;
  /** One run; `trigger` says who started it (the schedule, an admin, the CLI). */
  run(ctx: JobContext, trigger: RunTrigger): Promise<unknown>;
}

const accounts = (ctx: JobContext) => ({
  db: ctx.database.db,
  gateway: ctx.gateway,
  tokenKey: ctx.tokenKey,
  adminUsernames: ctx.config.adminUsernames,
  settings: ctx.config.curation,
});

/**
 * The server's background work. Each job except `publish-site` runs under the lease of its name in
 * `job_schedules` (db/job-leases.ts): once per interval across all instances when scheduled, and one
 * run at a time whether the schedule, an admin or the CLI started it.
 */
export const JOBS = [
  {
    name: 'refresh-threads-tokens',
    interval: () => DAY,
    firstRunAfterMs: 5 * MINUTE,
    run: (ctx) => refreshDueTokens({ db: ctx.database.db, gateway: ctx.gateway, tokenKey: ctx.tokenKey }),
  },
  {
    name: 'curate',
    interval: (config) => config.refreshIntervalMinutes * MINUTE,
    firstRunAfterMs: MINUTE,
    run: async (ctx, trigger) => {
      const result = await runCuration({
        ...accounts(ctx),
        trigger,
        progress: (line) => ctx.progress('curate', line),
      });
      // After every run the catalogue is exported again: its manifest dates the last refresh.
      ctx.contentChanged('threads');
      return result;
    },
  },
  {
    name: 'publish-generated-posts',
    interval: () => MINUTE,
    firstRunAfterMs: MINUTE,
    quiet: true,
    run: (ctx) => publishGeneratedPosts(accounts(ctx)),
  },
  {
    // Approved threads' pictures are signed Threads addresses that expire within hours (decision 025).
    name: 'refresh-pictures',
    interval: () => HOUR,
    firstRunAfterMs: 2 * MINUTE,
    quiet: true,
    run: (ctx) => refreshExpiringPictures(accounts(ctx)),
  },
  {
    name: 'purge-expired-sessions',
    interval: () => DAY,
    firstRunAfterMs: 10 * MINUTE,
    run: async (ctx) => ({
      removed: await createSessionsRepository(ctx.database.db).deleteExpired(new Date()),
    }),
  },
  {
    // The embedded database only: PostgreSQL is backed up by its operator's pg_dump (decision 050).
    name: 'backup',
    interval: (config) => config.backups.intervalHours * HOUR,
    enabled: (ctx) => ctx.database.kind === 'pglite' && ctx.config.backups.intervalHours > 0,
    firstRunAfterMs: HOUR,
    run: (ctx) =>
      backUp({ config: ctx.config, database: ctx.database, tokenKey: ctx.tokenKey, takenBy: 'schedule' }),
  },
  {
    // Last week's digest, once its hold is over (issue 22): frozen, and its mail queued, once.
    name: 'publish-digest',
    interval: () => HOUR,
    firstRunAfterMs: 3 * MINUTE,
    run: async (ctx) => {
      const outcome = await publishDueDigest({ db: ctx.database.db, config: ctx.config });
      // Its page and the digests' feeds are rendered by the next publish (decision 057).
      if (outcome?.published) ctx.contentChanged('threads');
      return outcome;
    },
  },
  {
    // The mail outbox (decision 054): only with SMTP_URL; a message is claimed by one instance.
    name: 'send-mail',
    interval: () => MINUTE,
    firstRunAfterMs: MINUTE,
    quiet: true,
    enabled: (ctx) => ctx.config.mail.smtpUrl !== undefined,
    run: async (ctx) => {
      const transport = smtpTransport(ctx.config.mail.smtpUrl ?? '');
      try {
        return await sendQueuedMail({
          db: ctx.database.db,
          config: ctx.config,
          tokenKey: ctx.tokenKey,
          transport,
        });
      } finally {
        transport.close();
      }
    },
  },
  {
    // Every instance serves its own build: each picks up what another instance's job changed.
    name: 'publish-site',
    interval: () => SITE_PUBLISH_INTERVAL_MS,
    firstRunAfterMs: SITE_PUBLISH_INTERVAL_MS,
    perInstance: true,
    quiet: true,
    run: async (ctx) => ctx.requestSitePublish(),
  },
] as const satisfies readonly Job[];

export type JobName = (typeof JOBS)[number]['name'];
/** What a run of the named job returns (e.g. the curation run's summary). */
export type JobResult<N extends JobName> = Awaited<
  ReturnType<Extract<(typeof JOBS)[number], { name: N }>['run']>
>;

/**
 * Runs the named job now, due or not: under its lease (refused while another run holds it; the
 * next scheduled run is then one interval away), or directly when it is per instance.
 */
export async function runJob<N extends JobName>(
  name: N,
  ctx: JobContext,
  trigger: RunTrigger,
  timing: { intervalMs?: number | undefined; leaseMs?: number | undefined } = {},
): Promise<JobOutcome<JobResult<N>>> {
  const job: Job | undefined = JOBS.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job named ${name}`);
  // The job found by its name returns that job's result.
  const run = () => job.run(ctx, trigger) as Promise<JobResult<N>>;
  const intervalMs = timing.intervalMs ?? job.interval(ctx.config);
  return runOnce(
    { name: job.name, perInstance: job.perInstance, intervalMs, run },
    ctx.database,
    timing.leaseMs,
  );
}
