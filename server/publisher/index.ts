import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import {
  buildSite,
  catalogueExportFor,
  siteBuildOptionsFor,
  WAITING_FOR_SITE,
  withSiteLock,
} from './build/build-site.ts';
import { prepareCatalogue } from './build/host/catalogue-source.ts';
import { siteDeployFor } from './deploy/deploy-targets.ts';
import { exportCatalogue } from './export/export-catalogue.ts';
import { createSitePublisher, publishSite } from './publish-site.ts';
import { ServedSite } from './serve/served-site.ts';
import type { Publisher, PublisherOptions } from './publisher.ts';
import { startSharedPublisher } from './shared-publisher.ts';

export { ServedSite } from './serve/served-site.ts';
export { mountServedSite } from './serve/mount.ts';
export { devThreadTemplate } from './serve/dev-template.ts';
export { SocialImages } from './serve/social-route.ts';
export { servedTopics } from './serve/served-topics.ts';
export type { StaticFile } from './serve/static-store.ts';
export type { SiteDeployOptions } from './deploy/deploy-targets.ts';
export type { PublishChange } from './publish-site.ts';
export type { Publisher, PublisherOptions } from './publisher.ts';

/**
 * Publishes once (the first build streams its progress), then serves the result and returns the
 * publisher that republishes on request. On PostgreSQL with the site served, instances publish as
 * one (shared-publisher.ts): one of them builds, every one serves the same version.
 */
export async function startPublisher(options: PublisherOptions): Promise<Publisher> {
  const shared = options.publish && options.config.serveSite && options.database.kind === 'postgres';
  return shared ? startSharedPublisher(options) : startLocalPublisher(options);
}

/** The publisher of a lone instance (PGlite, or tests that share the site): its own folders, served. */
async function startLocalPublisher(options: PublisherOptions): Promise<Publisher> {
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
  // A first start (no site built yet) publishes in the background: on a large catalogue the first
  // export and build take minutes, while the API answers and pages say the site is being built.
  const firstBuild = options.publish && config.serveSite && !(await hasBuiltSite(config.siteDir));
  // What killed builds left beside SITE_DIR goes with a publish, holding the site's lock (decision 064):
  // an API-only server (SERVE_SITE=false) sharing the folder of the pages' server never touches it.
  if (options.publish) {
    if (!firstBuild) await publish(false);
  } else await exportCatalogue(db, catalogue);

  // Read whole: another server sharing SITE_DIR swaps it only holding the same lock.
  const whole = <T>(read: () => Promise<T>) =>
    config.serveSite
      ? withSiteLock(config.siteDir, read, {
          onWait: (holder) => log.info({ siteDir: config.siteDir, holder: holder.pid }, WAITING_FOR_SITE),
        })
      : read();
  const load = () =>
    ServedSite.load({
      siteDir: config.serveSite ? config.siteDir : null,
      catalogueDir: config.catalogueDir,
      secure: config.secure,
      apiOrigin: config.apiBaseUrl,
      firstBuild,
    });
  // A first start reads nothing yet: it listens at once (decision 038), even while another builds.
  const served = await (firstBuild ? load() : whole(load));
  const runner = options.publish
    ? createSitePublisher({
        publish: (profiles) => publish(true, profiles),
        reload: (catalogueOnly) =>
          catalogueOnly ? served.reloadCatalogue() : whole(() => served.reloadSite()),
        log,
        delayMs: options.delayMs,
        memberIntervalMs: config.memberPublishIntervalMinutes * 60_000,
      })
    : null;
  if (firstBuild) {
    log.info('No site is built yet: building it in the background; pages answer 503 until it is served.');
    runner?.request();
  }
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
  // For a static host: the site folder is all it gets, so it carries the catalogue.
  const options = { ...siteBuildOptionsFor(config), catalogueInSite: true };
  log(`Building the site into ${options.siteDir} ...`);
  await buildSite(options, { log });
  return options.siteDir;
}

/** Whether SITE_DIR holds a built site (its 404 page is the one file every build has). */
async function hasBuiltSite(siteDir: string): Promise<boolean> {
  return access(path.join(siteDir, '404.html')).then(
    () => true,
    () => false,
  );
}
