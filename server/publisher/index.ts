import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { buildSite, catalogueExportFor, siteBuildOptionsFor } from './build/build-site.ts';
import { prepareCatalogue } from './build/host/catalogue-source.ts';
import { siteDeployFor, type SiteDeployOptions } from './deploy/deploy-targets.ts';
import type { SiteDeploy } from './deploy/site-deploy.ts';
import { exportCatalogue } from './export/export-catalogue.ts';
import { removeLeftoverBuilds } from './build/staging.ts';
import { createSitePublisher, publishSite, type PublishChange } from './publish-site.ts';
import { ServedSite } from './serve/served-site.ts';

export { ServedSite } from './serve/served-site.ts';
export { mountServedSite } from './serve/mount.ts';
export type { StaticFile } from './serve/static-store.ts';
export type { SiteDeployOptions } from './deploy/deploy-targets.ts';
export type { PublishChange } from './publish-site.ts';

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
   */
  request(change?: PublishChange): void;
  /** Resolves once no publish is running or waiting (a member change held back by the cap included). */
  settled(): Promise<void>;
  /** Serves the catalogue folder as it is on disk now (after an export made outside the publisher). */
  reloadCatalogue(): Promise<void>;
  /** Waits for the running publish and the last delivery, then refuses more (shutdown). */
  close(): Promise<void>;
}

/**
 * Publishes once (the first build streams its progress), then serves the result and returns the
 * publisher that republishes on request.
 */
export async function startPublisher(options: PublisherOptions): Promise<Publisher> {
  const { config, database, log } = options;
  const { db } = database;
  // Without the pages (npm run dev) only the catalogue is exported: Astro's dev server renders the rest.
  const catalogue = catalogueExportFor(config);
  const deploy = options.publish ? siteDeployFor(config, database, log, options.deploy) : null;
  const publish = async (capture: boolean, profiles = true) => {
    const outcome = config.serveSite
      ? await publishSite(db, siteBuildOptionsFor(config), { log, capture, catalogue, profiles })
      : { exportChanged: await exportCatalogue(db, catalogue), built: false };
    deploy?.afterPublish(outcome.exportChanged);
    return outcome.built;
  };
  if (options.publish) {
    // Only the publishing instance builds into SITE_DIR: what a killed build left there is its own.
    for (const removed of await removeLeftoverBuilds(config.siteDir)) {
      log.info({ removed }, 'Removed a folder a stopped build left behind.');
    }
    await publish(false);
  } else await exportCatalogue(db, catalogue);

  const served = await ServedSite.load({
    siteDir: config.serveSite ? config.siteDir : null,
    catalogueDir: config.catalogueDir,
    secure: config.secure,
    apiOrigin: config.apiBaseUrl,
  });
  const runner = options.publish
    ? createSitePublisher({
        publish: (profiles) => publish(true, profiles),
        reload: (catalogueOnly) => (catalogueOnly ? served.reloadCatalogue() : served.reloadSite()),
        log,
        delayMs: options.delayMs,
        memberIntervalMs: config.memberPublishIntervalMinutes * 60_000,
      })
    : null;
  return {
    served,
    deploy,
    request: (change) => runner?.request(change),
    settled: async () => runner?.settled(),
    reloadCatalogue: () => served.reloadCatalogue(),
    async close() {
      await runner?.close();
      // After the publisher: its last export may still ask for a delivery, which close() then refuses.
      await deploy?.close();
    },
  };
}

/**
 * `npm run build`: builds the site with the settings and stamp `npm start` checks, from a catalogue it
 * makes sure exists first (CATALOGUE_URL, CATALOGUE_DIR, the configured folder's export, or the sample).
 */
export async function buildSiteOnce(
  config: Config,
  {
    log,
    catalogueUrl,
    catalogueDirGiven,
  }: { log: (line: string) => void; catalogueUrl: string | undefined; catalogueDirGiven: boolean },
): Promise<string> {
  await prepareCatalogue({ ...catalogueExportFor(config), catalogueUrl, catalogueDirGiven }, { log });
  const options = siteBuildOptionsFor(config);
  log(`Building the site into ${options.siteDir} ...`);
  await buildSite(options, { log });
  return options.siteDir;
}
