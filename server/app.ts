import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import errors from './plugins/errors.ts';
import securityHeaders, { applySecurityHeaders } from './plugins/security-headers.ts';
import staticSite from './plugins/static-site.ts';
import healthRoutes from './routes/health/index.ts';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Overrides the logger (tests pass false or a stream). */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole server: plugins, then routes, then the static site. It never listens (main.ts does). */
export async function buildApp({ config, database, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      // Query strings can carry OAuth codes: request logs keep the path only.
      serializers: {
        req: (req) => ({ method: req.method, url: req.url.split('?', 1)[0] ?? '', remoteAddress: req.ip }),
      },
    },
    // Trust X-Forwarded-* only from the configured number of proxy hops in front of us.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    bodyLimit: 16 * 1024,
    routerOptions: { maxParamLength: 200 },
    // A malformed URL is rejected before any route or hook runs: answer it in our shape, headers included.
    frameworkErrors: (error, request, frameworkReply) => {
      const reply = frameworkReply as FastifyReply;
      applySecurityHeaders(reply, request.url, { secure: config.secure });
      void reply.status(400).send({ detail: `This address is not valid: ${error.message}` });
    },
  });

  await app.register(securityHeaders, { secure: config.secure });
  await app.register(errors);
  await app.register(healthRoutes, { database });
  await app.register(staticSite, {
    siteDir: config.siteDir,
    catalogueDir: config.catalogueDir,
    secure: config.secure,
  });

  app.addHook('onClose', () => database.close());
  return app;
}
