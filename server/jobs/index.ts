import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { RunTrigger } from '../repositories/curation-runs.ts';
import { createSessionsRepository } from '../repositories/sessions.ts';
import type { ThreadsGateway } from '../threads/gateway.ts';
import { runCuration } from '../services/curation/curate.ts';
import { publishGeneratedPosts } from '../services/publishing/publish-generated-posts.ts';
import { refreshDueTokens } from '../services/tokens/refresh-tokens.ts';
import type { ScheduledJob } from './scheduler.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** How often every instance exports the catalogue and rebuilds when it changed elsewhere. */
export const SITE_PUBLISH_INTERVAL_MS = 5 * MINUTE;

export interface ServerJobsDeps {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
}

/**
 * The server's background work: curation, publishing generated posts, token refresh, session
 * purge and the per-instance site publish. Each locked job runs on one instance at a time.
 */
export function createServerJobs({ app, config, database, gateway, tokenKey }: ServerJobsDeps) {
  const { db } = database;
  const accounts = { db, tokenKey, adminUsernames: config.adminUsernames, settings: config.curation };

  // After every run the catalogue is exported again: its manifest dates the last refresh.
  const curateNow = async (trigger: RunTrigger) => {
    const result = await runCuration({
      ...accounts,
      gateway,
      trigger,
      progress: (line) => app.log.info({ job: 'curate' }, line),
    });
    app.contentChanged('threads');
    return result;
  };
  // The scheduler takes the same 'curate' lock, so a scheduled and an admin run never overlap.
  const curate = (trigger: RunTrigger) => database.withJobLock('curate', () => curateNow(trigger));

  const publishPostsNow = () => publishGeneratedPosts({ ...accounts, gateway });
  const publishPosts = () => database.withJobLock('publish-generated-posts', publishPostsNow);

  const scheduled: ScheduledJob[] = [
    {
      name: 'refresh-threads-tokens',
      intervalMs: DAY,
      firstRunAfterMs: 5 * MINUTE,
      run: () => refreshDueTokens({ db, gateway, tokenKey }),
    },
    {
      name: 'curate',
      intervalMs: config.refreshIntervalMinutes * MINUTE,
      firstRunAfterMs: MINUTE,
      run: () => curateNow('schedule'),
    },
    {
      name: 'publish-generated-posts',
      intervalMs: MINUTE,
      firstRunAfterMs: MINUTE,
      quiet: true,
      run: publishPostsNow,
    },
    {
      name: 'purge-expired-sessions',
      intervalMs: DAY,
      firstRunAfterMs: 10 * MINUTE,
      run: async () => ({ removed: await createSessionsRepository(db).deleteExpired(new Date()) }),
    },
    {
      // Every instance serves its own build: each picks up what another instance's job changed.
      name: 'publish-site',
      perInstance: true,
      quiet: true,
      intervalMs: SITE_PUBLISH_INTERVAL_MS,
      firstRunAfterMs: SITE_PUBLISH_INTERVAL_MS,
      run: async () => app.sitePublisher?.request(),
    },
  ];
  return { curate, publishPosts, scheduled };
}
