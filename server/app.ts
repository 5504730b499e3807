import type { AddressInfo, Socket } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import accessPlugin from './plugins/access.ts';
import connectionCap from './plugins/connection-cap.ts';
import contentChanges from './plugins/content-changes.ts';
import cors from './plugins/cors.ts';
import errors from './plugins/errors.ts';
import rateLimits from './plugins/rate-limits.ts';
import sameOrigin from './plugins/same-origin.ts';
import sessionPlugin from './plugins/session/index.ts';
import securityHeadersPlugin from './plugins/security-headers.ts';
import { applySecurityHeaders, securityHeaders } from './http/security-headers.ts';
import staticSite from './plugins/static-site/index.ts';
import { requestPath } from './http/request-path.ts';
import adminRoutes from './routes/admin/index.ts';
import curationRoutes from './routes/admin/curation.ts';
import threadRoutes from './routes/threads/index.ts';
import dashboardRoutes from './routes/dashboard/index.ts';
import authRoutes from './routes/auth/index.ts';
import metaCallbacks from './routes/auth/meta-callbacks.ts';
import { catalogueExportFor, siteBuildOptionsFor } from './services/site/build-site.ts';
import { exportCatalogue } from './services/catalogue/export-catalogue.ts';
import { siteDeployFor, type SiteDeployOptions } from './services/site/deploy-targets.ts';
import { createServerJobs } from './jobs/index.ts';
import { createSitePublisher, publishSite, type SitePublisher } from './services/site/publish-site.ts';
import type { SiteDeploy } from './services/site/site-deploy.ts';
import type { PublishOutcome } from './services/publishing/publish-generated-posts.ts';
import { startScheduler } from './jobs/scheduler.ts';
import healthRoutes from './routes/health/index.ts';
import moderationRoutes from './routes/moderation/index.ts';
import userRoutes from './routes/user/index.ts';
import type { Secrets } from './secrets.ts';
import { createThreadsClient } from './threads/live-client.ts';
import simulatedProvider from './threads/simulated/provider.ts';
import { SimulatedThreadsStore, simulatedTokenKey } from './threads/simulated/store.ts';
import { SIMULATED_PREFIX, threadsSettings } from './threads/settings.ts';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  secrets: Secrets;
  /** Overrides the logger (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Where the standard logger writes instead of stdout (tests scan it for secrets). */
  logStream?: { write(line: string): void };
  /** The simulated provider's clock (tests move it to expire codes and age tokens). */
  simulatedClock?: () => number;
  /** Run the scheduled jobs (token refresh); tests turn them off and call the jobs directly. */
  scheduleJobs?: boolean;
  /**
   * Rebuild and swap in the site when public content changes (with SERVE_SITE); tests that share
   * the site under test turn it off. `publishDelayMs` is how long a burst of changes is gathered.
   */
  publishSite?: boolean;
  publishDelayMs?: number;
  /** The deploy triggers' burst delay and hook retries (tests make them instant). */
  deploy?: SiteDeployOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Rebuilds the site after content changes; null when this server does not publish it. */
    sitePublisher: SitePublisher | null;
    /** Calls DEPLOY_HOOK_URL / runs DEPLOY_COMMAND after export changes; null when neither is set. */
    siteDeploy: SiteDeploy | null;
    /** Publishes due generated posts now (under the job lock); the scheduler also runs it every minute. */
    publishGeneratedPosts(): Promise<{ ran: true; result: PublishOutcome } | { ran: false }>;
  }
}

/**
 * Answers a request Node's HTTP parser rejected (oversized headers, a malformed request line) in our
 * shape: no route, hook or reply exists for it, so the response is written to the socket directly.
 */
function clientErrorHandler(config: Config) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return;
    const [status, reason, detail] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive.']
          : [400, 'Bad Request', 'The request is malformed.'];
    const body = JSON.stringify({ detail });
    const headers = [
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(Buffer.byteLength(body))],
      ['Cache-Control', 'no-store'],
      ['Connection', 'close'],
      ...securityHeaders({ secure: config.secure }),
    ];
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n${headers.map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n${body}`,
    );
  };
}

/**
 * A request (headers and body) must arrive within REQUEST_TIMEOUT_SECONDS, or it is answered 408 and
 * its connection closed: a body that never finishes no longer holds a socket forever. Node checks the
 * deadline every `connectionsCheckingInterval`, so that is a fraction of the timeout. There is no idle
 * socket timeout (connectionTimeout 0): an admin's 'Refresh now' waits silently for a whole curation
 * run, and idle sockets are already bounded by the headers timeout (before a request) and the
 * keep-alive timeout (between requests).
 */
function connectionTimeouts(requestTimeoutMs: number) {
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: 0,
    // Fastify's default: longer than the usual load balancer's idle timeout (60 s).
    keepAliveTimeout: 72_000,
    http: {
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      connectionsCheckingInterval: Math.min(5_000, Math.max(100, Math.floor(requestTimeoutMs / 4))),
    },
  };
}

/**
 * One log line per request, written when it completes (method, path, status, time), instead of
 * Fastify's two. Successful reads (GET/HEAD under 400) are logged at debug: each line is a synchronous
 * write costing as much as the rest of a hot read, and health is polled. Writes, refusals and errors
 * stay at info, and errors are logged as before ('request errored', and by the error handler).
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const read = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode < 400;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (read) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/** How this process reaches itself: its listening address, on loopback when it listens on every interface. */
function internalOrigin(app: FastifyInstance, host: string): string {
  const { port } = app.server.address() as AddressInfo;
  const loopback = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${port}`;
}

/** Builds the whole server: plugins, then routes, then the static site. It never listens (main.ts does). */
export async function buildApp({
  config,
  database,
  secrets,
  logger,
  logStream,
  simulatedClock,
  scheduleJobs = true,
  publishSite: publishSiteOption = true,
  publishDelayMs,
  deploy: deployOptions,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      // Query strings can carry OAuth codes: request logs keep the path only.
      serializers: {
        req: (req) => ({ method: req.method, url: requestPath(req.url), remoteAddress: req.ip }),
      },
    },
    logController: new OneLineRequestLog(),
    // Loading the site and a large catalogue into memory (100k threads: ~12,800 files, 15-40 s on two
    // cores) must not trip Fastify's 10 s plugin limit.
    pluginTimeout: 180_000,
    // Trust X-Forwarded-* only from the configured number of proxy hops in front of us.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    bodyLimit: 16 * 1024,
    routerOptions: { maxParamLength: 200 },
    // While closing we answer 503 ourselves (below), with our headers and body.
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(config),
    ...connectionTimeouts(config.connections.requestTimeoutMs),
    // A malformed URL is rejected before any route or hook runs: answer it in our shape, headers included.
    frameworkErrors: (_error, request, frameworkReply) => {
      const reply = frameworkReply as FastifyReply;
      applySecurityHeaders(reply, requestPath(request.url).startsWith('/api/'), { secure: config.secure });
      void reply.status(400).send({ detail: 'This address is not valid.' });
    },
  });
  // The API speaks JSON only: a text/plain body (what a cross-site form can send) is refused with 415.
  app.removeContentTypeParser('text/plain');

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style, like the other per-request hooks: an async hook costs a promise on every request.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    void reply
      .status(503)
      .header('Retry-After', '5')
      .header('Connection', 'close')
      .send({ detail: 'The server is restarting. Please try again in a moment.' });
  });

  await app.register(connectionCap, { maxPerAddress: config.connections.maxPerAddress });
  await app.register(securityHeadersPlugin, { secure: config.secure });
  await app.register(errors);
  await app.register(contentChanges);
  // Before the CSRF check and the session: a preflight is answered (or refused) before either runs.
  await app.register(cors, { origin: config.publicUrl.origin });
  await app.register(sameOrigin, { origin: config.publicUrl.origin });
  await app.register(fastifyCookie);
  await app.register(sessionPlugin, {
    db: database.db,
    sessionSecret: secrets.sessionSecret,
    secure: config.secure,
  });
  await app.register(accessPlugin, { db: database.db, adminUsernames: config.adminUsernames });
  await app.register(rateLimits);
  await app.register(healthRoutes, { database });

  const settings = threadsSettings(config);
  // In simulated mode the server signs in against its own provider, over HTTP like the real thing.
  const graphBaseUrl =
    config.threads.mode === 'simulated'
      ? () => `${internalOrigin(app, config.host)}${SIMULATED_PREFIX}`
      : config.threads.graphBaseUrl;
  const gateway = createThreadsClient({ graphBaseUrl, appId: settings.appId, appSecret: settings.appSecret });
  await app.register(authRoutes, { config, settings, gateway, db: database.db, tokenKey: secrets.tokenKey });
  const rateLimitMultiplier = config.rateLimitMultiplier;
  await app.register(metaCallbacks, {
    db: database.db,
    appSecret: settings.appSecret,
    publicOrigin: config.publicUrl.origin,
    rateLimitMultiplier,
  });
  await app.register(userRoutes, { db: database.db, rateLimitMultiplier });
  await app.register(adminRoutes, { db: database.db });
  const jobs = createServerJobs({ app, config, database, gateway, tokenKey: secrets.tokenKey });
  app.decorate('publishGeneratedPosts', jobs.publishPosts);
  await app.register(threadRoutes, {
    db: database.db,
    // Tests publish on their own schedule; the server starts on a queued post at once.
    ...(scheduleJobs
      ? {
          onPostQueued: () =>
            void jobs
              .publishPosts()
              .catch((error: unknown) => app.log.error({ err: error }, 'publishing failed')),
        }
      : {}),
  });
  await app.register(dashboardRoutes, {
    db: database.db,
    gateway,
    tokenKey: secrets.tokenKey,
    adminUsernames: config.adminUsernames,
    rateLimitMultiplier,
  });
  await app.register(curationRoutes, { db: database.db, curate: jobs.curate });
  await app.register(moderationRoutes, { db: database.db });
  if (config.threads.mode === 'simulated') {
    await app.register(simulatedProvider, {
      prefix: SIMULATED_PREFIX,
      clientId: settings.appId,
      clientSecret: settings.appSecret,
      redirectUris: settings.redirectUris,
      store: new SimulatedThreadsStore(simulatedClock, simulatedTokenKey(secrets.sessionSecret)),
      appOrigin: () => internalOrigin(app, config.host),
      mediaOrigin: () => config.publicUrl.origin,
    });
  }
  // Without the pages (npm run dev) only the catalogue is exported: Astro's dev server renders the rest.
  const catalogue = catalogueExportFor(config);
  // Only a server that publishes runs the rebuild triggers (the test apps that share a site do not).
  const siteDeploy = publishSiteOption ? siteDeployFor(config, database, app.log, deployOptions) : null;
  app.decorate('siteDeploy', siteDeploy);
  const publish = async (capture: boolean) => {
    const outcome = config.serveSite
      ? await publishSite(database.db, siteBuildOptionsFor(config), { log: app.log, capture, catalogue })
      : { exportChanged: await exportCatalogue(database.db, catalogue), built: false };
    siteDeploy?.afterPublish(outcome.exportChanged);
    return outcome.built;
  };
  // The server owns what it serves: the catalogue, and the site built from it, are published before
  // they are first read (the first build streams its progress). Tests that share the site under test
  // only export.
  if (publishSiteOption) await publish(false);
  else await exportCatalogue(database.db, catalogue);
  await app.register(staticSite, {
    siteDir: config.serveSite ? config.siteDir : null,
    catalogueDir: config.catalogueDir,
    secure: config.secure,
    apiOrigin: config.apiBaseUrl,
  });

  // Registered before the publisher's close: on shutdown no new job starts while a build finishes.
  if (scheduleJobs) {
    let stop = () => {};
    app.addHook('onReady', async () => {
      stop = startScheduler(jobs.scheduled, database, app.log);
    });
    app.addHook('preClose', async () => stop());
  }

  const publisher = publishSiteOption
    ? createSitePublisher({
        publish: () => publish(true),
        reload: (catalogueOnly) => (catalogueOnly ? app.reloadCatalogue() : app.reloadSite()),
        log: app.log,
        delayMs: publishDelayMs,
      })
    : null;
  app.decorate('sitePublisher', publisher);
  if (publisher) {
    // A rejection changes no page (only the moderation log, read from the API): no rebuild for it.
    app.onContentChanged((change) => {
      if (change !== 'decisions') publisher.request();
    });
    app.addHook('preClose', () => publisher.close());
  }
  // After the publisher: its last export may still ask for a delivery, which close() then refuses.
  if (siteDeploy) app.addHook('preClose', () => siteDeploy.close());

  app.addHook('onClose', () => database.close());
  return app;
}
