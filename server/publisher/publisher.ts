import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { SiteDeployOptions } from './deploy/deploy-targets.ts';
import type { SiteDeploy } from './deploy/site-deploy.ts';
import type { PublishChange } from './publish-site.ts';
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
  /** How long a burst of approvals is gathered before a publish (PUBLISH_DELAY_MS by default). */
  delayMs?: number | undefined;
  /** The deploy triggers' burst delay and hook retries (tests make them instant). */
  deploy?: SiteDeployOptions | undefined;
  /** Among several instances on PostgreSQL: the publisher lease's life, the version polling and the switch lead (tests shorten them). */
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
  /**
   * Asks for a publish: bursts are coalesced; 'threads' publishes soon, 'profiles' (member actions)
   * at most once per MEMBER_PUBLISH_INTERVAL_MINUTES; no change named (the periodic publish) soon,
   * without the member changes the cap holds back. Ignored when this publisher does not publish.
   * `origin.local` false: another instance's change, heard through LISTEN (decision 030); among
   * instances that publish as one (decision 036) the instance that made it asks for the publish.
   */
  request(change?: PublishChange, origin?: { local: boolean }): void;
  /** Resolves once no publish is running or waiting (a member change held back by the cap included). */
  settled(): Promise<void>;
  /** Serves the catalogue folder as it is on disk now (after an export made outside the publisher). */
  reloadCatalogue(): Promise<void>;
  /** Waits for the running publish and the last delivery, then refuses more (shutdown). */
  close(): Promise<void>;
}
