import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { catalogueExportFor, siteBuildOptionsFor } from '../services/site/build-site.ts';
import { exportCatalogue } from '../services/catalogue/export-catalogue.ts';
import { siteDeployFor, type SiteDeployOptions } from '../services/site/deploy-targets.ts';
import { createSitePublisher, publishSite, type SitePublisher } from '../services/site/publish-site.ts';
import type { SiteDeploy } from '../services/site/site-deploy.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Rebuilds the site after content changes; null when this server does not publish it. */
    sitePublisher: SitePublisher | null;
    /** Calls DEPLOY_HOOK_URL / runs DEPLOY_COMMAND after export changes; null when neither is set. */
    siteDeploy: SiteDeploy | null;
  }
}

export interface SitePublisherOptions {
  config: Config;
  /**
   * Rebuild and swap in the site when public content changes (with SERVE_SITE), and run the
   * rebuild triggers; tests that share the site under test turn it off and only export.
   */
  publish: boolean;
  /** How long a burst of changes is gathered before a rebuild. */
  delayMs?: number | undefined;
  /** The deploy triggers' burst delay and hook retries (tests make them instant). */
  deploy?: SiteDeployOptions | undefined;
}

/**
 * The server owns what it serves: the catalogue, and the site built from it, are published before
 * they are first read (the first build streams its progress), then again after every change to
 * public content. Register it before the static site, which reads what this publishes.
 */
const sitePublisher: FastifyPluginAsync<SitePublisherOptions> = async (app, options) => {
  const { config } = options;
  const { db } = app.database;
  // Without the pages (npm run dev) only the catalogue is exported: Astro's dev server renders the rest.
  const catalogue = catalogueExportFor(config);
  const siteDeploy = options.publish ? siteDeployFor(config, app.database, app.log, options.deploy) : null;
  app.decorate('siteDeploy', siteDeploy);
  const publish = async (capture: boolean) => {
    const outcome = config.serveSite
      ? await publishSite(db, siteBuildOptionsFor(config), { log: app.log, capture, catalogue })
      : { exportChanged: await exportCatalogue(db, catalogue), built: false };
    siteDeploy?.afterPublish(outcome.exportChanged);
    return outcome.built;
  };
  if (!options.publish) {
    await exportCatalogue(db, catalogue);
    app.decorate('sitePublisher', null);
    return;
  }
  await publish(false);
  const publisher = createSitePublisher({
    publish: () => publish(true),
    // Decorated by the static site, registered after this plugin; called only once the app runs.
    reload: (catalogueOnly) => (catalogueOnly ? app.reloadCatalogue() : app.reloadSite()),
    log: app.log,
    delayMs: options.delayMs,
  });
  app.decorate('sitePublisher', publisher);
  // A rejection changes no page (only the moderation log, read from the API): no rebuild for it.
  app.onContentChanged((change) => {
    if (change !== 'decisions') publisher.request();
  });
  app.addHook('preClose', () => publisher.close());
  // After the publisher: its last export may still ask for a delivery, which close() then refuses.
  if (siteDeploy) app.addHook('preClose', () => siteDeploy.close());
};

export default fp(sitePublisher, { name: 'site-publisher', dependencies: ['database', 'content-changes'] });
