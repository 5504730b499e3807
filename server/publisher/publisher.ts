import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { SiteDeployOptions } from './deploy/deploy-targets.ts';
import type { SiteDeploy } from './deploy/site-deploy.ts';
import type { ServedSite } from './serve/served-site.ts';

export interface PublisherOptions {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /**
   * Rebuild and swap in the site when public content changes (with SERVE_SITE), and run the rebuild
   * triggers; tests that share the site under test turn it off and only export.
   */
  publish: boolean;
  /** How long a burst of changes is gathered before a rebuild. */
  delayMs?: number | undefined;
  /** The deploy triggers' burst delay and hook retries (tests make them instant). */
  deploy?: SiteDeployOptions | undefined;
  /** Among several instances on PostgreSQL: the publisher lease's life and the version polling (tests shorten them). */
  shared?: { leaseMs?: number; pollMs?: number; leadMs?: number } | undefined;
}

/**
 * The publisher: everything between a change to public content and the files visitors get
 * (export the catalogue and profiles, build the site, host files, serve, deploy), behind one
 * interface. The app's wiring asks it to publish and asks it what to serve; nothing else reaches in.
 */
export interface Publisher {
  /** What is served now; swapped by the publisher itself after each publish. */
  readonly served: ServedSite;
  /** The rebuild triggers (DEPLOY_HOOK_URL / DEPLOY_COMMAND); null when neither is set or not publishing. */
  readonly deploy: SiteDeploy | null;
  /** Asks for a publish soon: bursts are coalesced; ignored when this publisher does not publish. */
  request(): void;
  /** Resolves once no publish is running or waiting. */
  settled(): Promise<void>;
  /** Serves the catalogue folder as it is on disk now (after an export made outside the publisher). */
  reloadCatalogue(): Promise<void>;
  /** Waits for the running publish and the last delivery, then refuses more (shutdown). */
  close(): Promise<void>;
}
