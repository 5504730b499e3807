import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { localOrigin } from '../http/loopback.ts';
import type { ThreadsGateway } from '../threads/gateway.ts';
import type { RetryOptions } from '../threads/graph-errors.ts';
import { createThreadsClient } from '../threads/live-client.ts';
import { SIMULATED_PREFIX, threadsSettings, type ThreadsSettings } from '../threads/settings.ts';
import simulatedProvider from '../simulator/provider.ts';
import { SimulatedThreadsStore, simulatedTokenKey } from '../simulator/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** How the server talks to Threads: the live API, or in simulated mode its own provider over HTTP. */
    threads: { gateway: ThreadsGateway; settings: ThreadsSettings };
  }
}

export interface ThreadsGatewayOptions {
  config: Config;
  /** Signs the simulated provider's tokens (so a CLI beside the server accepts the server's tokens). */
  sessionSecret: string;
  /** The simulated provider's clock (tests move it to expire codes and age tokens). */
  simulatedClock?: (() => number) | undefined;
  /** Where this app listens, when not at the configured HOST (the CLI listens on loopback). */
  host?: string | undefined;
  /** How throttled and unavailable calls are retried (tests wait a few ms); the client's default otherwise. */
  retry?: RetryOptions | undefined;
}

/**
 * The Threads gateway, shared by the server and `npm run curate`. In simulated mode the simulated
 * provider is mounted on this app and the gateway calls it over HTTP like the real thing, so the
 * app must be listening before the gateway is used.
 */
const threadsGateway: FastifyPluginAsync<ThreadsGatewayOptions> = async (app, options) => {
  const { config } = options;
  const settings = threadsSettings(config);
  const simulated = config.threads.mode === 'simulated';
  // How this process reaches itself: the port it listens on, known once it listens.
  const self = () => localOrigin(options.host ?? config.host, (app.server.address() as AddressInfo).port);
  const gateway = createThreadsClient({
    graphBaseUrl: simulated ? () => `${self()}${SIMULATED_PREFIX}` : config.threads.graphBaseUrl,
    appId: settings.appId,
    appSecret: settings.appSecret,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  app.decorate('threads', { gateway, settings });
  if (!simulated) return;
  await app.register(simulatedProvider, {
    prefix: SIMULATED_PREFIX,
    clientId: settings.appId,
    clientSecret: settings.appSecret,
    redirectUris: settings.redirectUris,
    store: new SimulatedThreadsStore(options.simulatedClock, simulatedTokenKey(options.sessionSecret)),
    appOrigin: self,
    // Media addresses point at the simulator where browsers reach the API (the API's own origin in
    // a split deployment), like Meta's CDN links point at Meta.
    media: {
      origin: `${config.apiBaseUrl ?? config.publicUrl.origin}${SIMULATED_PREFIX}`,
      ttlSeconds: config.threads.simulated.mediaTtlSeconds,
    },
    imageDirs: [
      path.join(config.siteDir, 'sample', 'images'),
      path.resolve(import.meta.dirname, '../../public/sample/images'),
    ],
    accessLevel: config.threads.simulated.accessLevel,
    controls: config.threads.simulated.controls,
  });
};

export default fp(threadsGateway, { name: 'threads-gateway' });
