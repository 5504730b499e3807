import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createSocialPictures } from '../services/social-images/social-pictures.ts';
import { createThreadPages } from '../services/thread-pages/thread-page.ts';
import {
  devThreadTemplate,
  mountServedSite,
  servedTopics,
  SocialImages,
  startPublisher,
  type Publisher,
  type SiteDeployOptions,
} from '../publisher/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Publishes public content and answers with what it published (server/publisher/). */
    publisher: Publisher;
  }
}

export interface PublisherPluginOptions {
  config: Config;
  /**
   * Rebuild and swap in the site when public content changes (with SERVE_SITE), and run the
   * rebuild triggers; tests that share the site under test turn it off and only export.
   */
  publish: boolean;
  /** How long a burst of approvals is gathered before a publish (member changes: see the setting). */
  delayMs?: number | undefined;
  /** The deploy triggers' burst delay and hook retries (tests make them instant). */
  deploy?: SiteDeployOptions | undefined;
}

/**
 * Wires the publisher wing into the app: a change to public content asks it to publish, and every
 * path outside /api is answered with what it published. Registered last: its catch-all route must
 * not shadow another plugin's.
 */
const publisherPlugin: FastifyPluginAsync<PublisherPluginOptions> = async (app, options) => {
  const publisher = await startPublisher({
    config: options.config,
    database: app.database,
    log: app.log,
    publish: options.publish,
    delayMs: options.delayMs,
    deploy: options.deploy,
  });
  app.decorate('publisher', publisher);
  // A rejection changes no page (only the moderation log, read from the API): no rebuild for it.
  // Member actions are capped by MEMBER_PUBLISH_INTERVAL_MINUTES; approvals publish at once.
  app.onContentChanged((change, origin) => {
    if (change !== 'decisions') publisher.request(change, origin);
  });
  app.addHook('preClose', () => publisher.close());
  const threadPages = createThreadPages(app.database.db, {
    pictureBase: options.config.apiBaseUrl,
    display: options.config.publicPostDisplay,
  });
  const pictures = createSocialPictures({
    db: app.database.db,
    threadPages,
    topic: servedTopics(publisher.served.catalogue),
  });
  const { devPagesUrl } = options.config;
  mountServedSite(
    app,
    publisher.served,
    {
      pages: threadPages,
      publicUrl: options.config.publicUrl,
      secure: options.config.secure,
      devTemplate: devPagesUrl ? devThreadTemplate(devPagesUrl, app.log) : undefined,
    },
    new SocialImages(pictures, options.config.secure),
  );
};

export default fp(publisherPlugin, {
  name: 'publisher',
  dependencies: ['database', 'content-changes', 'graceful-close'],
});
