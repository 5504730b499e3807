import type { FastifyReply, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { clientErrorHandler } from './client-errors.ts';
import { OneLineRequestLog } from './request-log.ts';
import { requestPath } from './request-path.ts';
import { applySecurityHeaders } from './security-headers.ts';

export interface LoggingOptions {
  /** Overrides the logger (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Where the standard logger writes instead of stdout (tests scan it for secrets). */
  logStream?: { write(line: string): void };
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

/** The Fastify server options for the configuration: logging, limits, timeouts, and our answers to bad requests. */
export function serverOptions(config: Config, { logger, logStream }: LoggingOptions): FastifyServerOptions {
  return {
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
    // While closing we answer 503 ourselves (plugins/graceful-close.ts), with our headers and body.
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(config),
    ...connectionTimeouts(config.connections.requestTimeoutMs),
    // A malformed URL is rejected before any route or hook runs: answer it in our shape, headers included.
    frameworkErrors: (_error, request, frameworkReply) => {
      const reply = frameworkReply as FastifyReply;
      applySecurityHeaders(reply, requestPath(request.url).startsWith('/api/'), { secure: config.secure });
      void reply.status(400).send({ detail: 'This address is not valid.' });
    },
  };
}
