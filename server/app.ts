import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { useZodSchemas } from './http/route-schemas.ts';
import { serverOptions, type LoggingOptions } from './http/server-options.ts';
import accessPlugin from './plugins/access.ts';
import connectionCap from './plugins/connection-cap.ts';
import contentChanges from './plugins/content-changes.ts';
import cors from './plugins/cors.ts';
import databasePlugin from './plugins/database.ts';
import errors from './plugins/errors.ts';
import gracefulClose from './plugins/graceful-close.ts';
import publisher from './plugins/publisher.ts';
import rateLimits from './plugins/rate-limits.ts';
import sameOrigin from './plugins/same-origin.ts';
import scheduler, { type JobTiming } from './plugins/scheduler.ts';
import securityHeaders from './plugins/security-headers.ts';
import sessionPlugin from './plugins/session/index.ts';
import threadsGateway from './plugins/threads-gateway.ts';
import curationRoutes from './routes/admin/curation.ts';
import adminRoutes from './routes/admin/index.ts';
import authRoutes from './routes/auth/index.ts';
import authorRoutes from './routes/authors/index.ts';
import digestRoutes from './routes/digest/index.ts';
import metaCallbacks from './routes/auth/meta-callbacks.ts';
import dashboardRoutes from './routes/dashboard/index.ts';
import docsRoutes from './routes/docs/index.ts';
import healthRoutes from './routes/health/index.ts';
import mediaRoutes from './routes/media/index.ts';
import moderationRoutes from './routes/moderation/index.ts';
import threadRoutes from './routes/threads/index.ts';
import userRoutes from './routes/user/index.ts';
import noticeMailRoutes from './routes/notice-mail/index.ts';
import noticeRoutes from './routes/notices/index.ts';
import type { Secrets } from './secrets.ts';
import { createPictureService } from './services/pictures/picture-refresh.ts';
import type { SiteDeployOptions } from './publisher/index.ts';
import type { RetryOptions } from './threads/graph-errors.ts';

export interface AppOptions extends LoggingOptions {
  config: Config;
  database: DatabaseHandle;
  secrets: Secrets;
  /** The simulated provider's clock (tests move it to expire codes and age tokens). */
  simulatedClock?: () => number;
  /** Run the scheduled jobs (token refresh); tests turn them off and call the jobs directly. */
  scheduleJobs?: boolean;
  /** How often the scheduler ticks, its lease, and jobs' intervals (tests shorten them). */
  jobTiming?: JobTiming;
  /** Start a curation run when an admin signs in and none has reached Threads yet (default: scheduleJobs). */
  firstRunOnAdminSignIn?: boolean;
  /**
   * Rebuild and swap in the site when public content changes (with SERVE_SITE); tests that share
   * the site under test turn it off. `publishDelayMs` is how long a burst of changes is gathered.
   */
  publishSite?: boolean;
  publishDelayMs?: number;
  /** The deploy triggers' burst delay and hook retries (tests make them instant). */
  deploy?: SiteDeployOptions;
  /** How the Threads client retries throttled and unavailable calls (tests wait a few ms). */
  threadsRetry?: RetryOptions;
}

/**
 * Builds the whole server: our plugins in order (each says what it needs), then the routes, then
 * the publisher, which publishes the site and serves it. It never listens (main.ts does).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, secrets, scheduleJobs = true } = options;
  const firstRunOnAdminSignIn = options.firstRunOnAdminSignIn ?? scheduleJobs;
  const app = Fastify(serverOptions(config, options));
  // The API speaks JSON only: a text/plain body (what a cross-site form can send) is refused with 415.
  app.removeContentTypeParser('text/plain');
  // Routes declare their requests and answers with the contract's zod schemas (route-schemas.ts).
  useZodSchemas(app);

  // Registered first, closed last (onClose hooks run in reverse order).
  await app.register(databasePlugin, { database: options.database });
  await app.register(gracefulClose);
  await app.register(connectionCap, { maxPerAddress: config.connections.maxPerAddress });
  await app.register(securityHeaders, { secure: config.secure });
  await app.register(errors);
  await app.register(contentChanges);
  // Before the CSRF check and the session: a preflight is answered (or refused) before either runs.
  await app.register(cors, { origin: config.publicUrl.origin });
  await app.register(sameOrigin, { origin: config.publicUrl.origin });
  await app.register(fastifyCookie);
  const { db } = options.database;
  await app.register(sessionPlugin, { db, sessionSecret: secrets.sessionSecret, secure: config.secure });
  await app.register(accessPlugin, { db, adminUsernames: config.adminUsernames });
  await app.register(rateLimits);
  await app.register(threadsGateway, {
    config,
    sessionSecret: secrets.sessionSecret,
    simulatedClock: options.simulatedClock,
    retry: options.threadsRetry,
  });
  // Before the site publisher: on shutdown no new job starts while a build finishes.
  await app.register(scheduler, {
    config,
    tokenKey: secrets.tokenKey,
    schedule: scheduleJobs,
    timing: options.jobTiming,
  });

  const { gateway, settings } = app.threads;
  const rateLimitMultiplier = config.rateLimitMultiplier;
  await app.register(healthRoutes, { database: options.database, dataDir: config.dataDir });
  await app.register(docsRoutes, { secure: config.secure });
  await app.register(authRoutes, {
    config,
    settings,
    gateway,
    db,
    tokenKey: secrets.tokenKey,
    firstRun: firstRunOnAdminSignIn ? () => app.runJob('curate', 'admin') : null,
  });
  await app.register(metaCallbacks, {
    db,
    appSecret: settings.appSecret,
    publicOrigin: config.publicUrl.origin,
    rateLimitMultiplier,
  });
  await app.register(userRoutes, { db, rateLimitMultiplier, postDisplay: config.publicPostDisplay });
  await app.register(noticeRoutes, { db });
  await app.register(noticeMailRoutes, {
    db,
    tokenKey: secrets.tokenKey,
    siteUrl: config.publicUrl,
    mailEnabled: config.mail.smtpUrl !== undefined,
    rateLimitMultiplier,
  });
  await app.register(adminRoutes, { db, tokenKey: secrets.tokenKey, config });
  await app.register(threadRoutes, {
    db,
    // Tests publish on their own schedule; the server starts on a queued post at once.
    ...(scheduleJobs
      ? {
          onPostQueued: () =>
            void app
              .publishGeneratedPosts()
              .catch((error: unknown) => app.log.error({ err: error }, 'publishing failed')),
        }
      : {}),
  });
  await app.register(dashboardRoutes, {
    db,
    gateway,
    tokenKey: secrets.tokenKey,
    adminUsernames: config.adminUsernames,
    rateLimitMultiplier,
  });
  await app.register(curationRoutes, {
    db,
    curate: (trigger) => app.runJob('curate', trigger),
    accounts: { curatorUsername: config.curation.curatorUsername, adminUsernames: config.adminUsernames },
  });
  await app.register(moderationRoutes, { db, postDisplay: config.publicPostDisplay });
  await app.register(mediaRoutes, {
    pictures: createPictureService({
      db,
      gateway,
      tokenKey: secrets.tokenKey,
      settings: config.curation,
      adminUsernames: config.adminUsernames,
    }),
  });
  await app.register(authorRoutes, { db, rateLimitMultiplier, postDisplay: config.publicPostDisplay });
  await app.register(digestRoutes, {
    db,
    config,
    tokenKey: secrets.tokenKey,
    siteUrl: config.publicUrl,
    mailEnabled: config.mail.smtpUrl !== undefined,
    rateLimitMultiplier,
  });

  // Last: its catch-all route answers every path outside /api with the published site.
  await app.register(publisher, {
    config,
    publish: options.publishSite ?? true,
    delayMs: options.publishDelayMs,
    deploy: options.deploy,
  });
  return app;
}
