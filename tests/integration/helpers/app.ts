import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config.ts';
import type { SiteDeployOptions } from '../../../server/publisher/deploy/deploy-targets.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import type { JobTiming } from '../../../server/plugins/scheduler.ts';
import type { Secrets } from '../../../server/secrets.ts';
import type { RetryOptions } from '../../../server/threads/graph-errors.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { testDatabase } from './database.ts';

/** This worker's data folder: the apps export their catalogue into it, never into the repository. */
const WORKER_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'ct-test-data-'));
/** Where the test apps export the catalogue they serve (CATALOGUE_DIR's default in DATA_DIR). */
export const TEST_CATALOGUE_DIR = path.join(WORKER_DATA_DIR, 'catalogue');

/** The secrets of every test app in this worker: tests that decrypt stored tokens use the same key. */
export const TEST_SECRETS: Secrets = {
  sessionSecret: randomBytes(32).toString('hex'),
  tokenKey: randomBytes(32),
};

export interface TestAppOptions {
  /** A database of the app's own (closed with it); by default the worker's shared one, left open. */
  database?: DatabaseHandle;
  simulatedClock?: () => number;
  /** Capture the app's log (at LOG_LEVEL) instead of discarding it. */
  logStream?: { write(line: string): void };
  /** Rebuild the site on content changes; off by default, as the site under test is shared. */
  publishSite?: boolean;
  /** The deploy triggers' burst delay and hook retries (with publishSite). */
  deploy?: SiteDeployOptions;
  /** How the app's Threads client retries throttled calls: by default three tries a few ms apart. */
  threadsRetry?: RetryOptions;
  /** Start a curation run at the first admin sign-in, as a server does (off: tests run jobs themselves). */
  firstRunOnAdminSignIn?: boolean;
  /** Run the scheduled jobs as a server does (off: tests run jobs themselves), with this timing. */
  scheduleJobs?: boolean;
  jobTiming?: JobTiming;
}

/** Test apps retry as the server does, without its seconds of waiting. */
export const TEST_THREADS_RETRY: RetryOptions = { attempts: 3, baseDelayMs: 5 };

/**
 * The real app on the worker's database and the site under test; `env` adds or overrides variables.
 * Scheduled jobs are off unless asked for: tests call the jobs themselves.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  {
    database,
    simulatedClock,
    publishSite = false,
    logStream,
    deploy,
    threadsRetry = TEST_THREADS_RETRY,
    firstRunOnAdminSignIn = false,
    scheduleJobs = false,
    jobTiming,
  }: TestAppOptions = {},
): Promise<FastifyInstance> {
  const db = database ?? { ...(await testDatabase()), close: async () => {} };
  const config = loadConfig({
    SITE_DIR: TEST_SITE.siteDir,
    DATA_DIR: WORKER_DATA_DIR,
    SAMPLE_CATALOGUE_DIR: TEST_SITE.catalogueDir,
    LOG_LEVEL: 'silent',
    // Suites sign in far more often than people do; the rate-limit tests set the real limits back.
    RATE_LIMIT_MULTIPLIER: '1000',
    ...env,
  });
  return buildApp({
    config,
    database: db,
    secrets: TEST_SECRETS,
    ...(logStream ? { logStream } : { logger: false }),
    scheduleJobs,
    ...(jobTiming ? { jobTiming } : {}),
    firstRunOnAdminSignIn,
    publishSite,
    publishDelayMs: 0,
    ...(deploy ? { deploy } : {}),
    ...(simulatedClock ? { simulatedClock } : {}),
    threadsRetry,
  });
}
