import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PUBLIC_CATALOGUE_FILE } from '../../services/catalogue/catalogue-files.ts';
import { decodedPath, installEarlyHandler, isApiPath, serveEarly } from './early-static.ts';
import { chooseResponse, matchesETag } from './file-responses.ts';
import { catalogueCacheControl, isSiteFile, siteCacheControl } from '../../http/site-files.ts';
import { StaticStore, type StaticFile } from './static-store.ts';

export interface StaticSiteOptions {
  /** The built site (Astro's dist); null serves the catalogue only (the API behind `npm run dev`). */
  siteDir: string | null;
  /** The public catalogue, served at /data/*. */
  catalogueDir: string;
  secure: boolean;
  /** API_BASE_URL's origin, allowed in the pages' `connect-src`; absent: the pages call their own origin. */
  apiOrigin?: string | undefined;
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200) {
  const chosen = chooseResponse(file.responses, request.headers['accept-encoding']);
  if (status === 200 && matchesETag(request.headers['if-none-match'], chosen.etag))
    return reply.status(304).headers(chosen.notModified).send();
  return reply.status(status).headers(chosen.headers).send(chosen.body);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads the site and catalogue folders again: a rebuilt site is served without a restart. */
    reloadSite(): Promise<void>;
    /** Reads only the catalogue folder again (a new manifest needs no new site). */
    reloadCatalogue(): Promise<void>;
  }
}

function loadCatalogue(options: StaticSiteOptions, previous?: StaticStore) {
  return StaticStore.load(
    options.catalogueDir,
    '/data',
    {
      cacheControl: catalogueCacheControl,
      secure: options.secure,
      include: (file) => PUBLIC_CATALOGUE_FILE.test(file),
      brotliQuality: 5,
    },
    previous,
  );
}

async function loadStores(
  options: StaticSiteOptions,
  previous?: { site: StaticStore | null; data: StaticStore },
) {
  const [site, data] = await Promise.all([
    options.siteDir === null
      ? null
      : StaticStore.load(
          options.siteDir,
          '',
          {
            cacheControl: siteCacheControl,
            secure: options.secure,
            include: isSiteFile,
            precompressed: true,
            apiOrigin: options.apiOrigin,
          },
          previous?.site,
        ),
    loadCatalogue(options, previous?.data),
  ]);
  const notFoundPage = site?.get('/404.html');
  if (site && !notFoundPage)
    throw new Error(`The built site in ${options.siteDir} has no 404.html; run npm run build.`);
  return { site, data, notFoundPage };
}

/**
 * Serves the built site and the public catalogue from memory: both folders are read and
 * precompressed at start and on reloadSite(). Unknown paths get 404.html with status 404.
 */
const staticSite: FastifyPluginAsync<StaticSiteOptions> = async (app, options) => {
  // Replaced whole on reload, so a request sees either the old site or the new one, never a mix.
  let stores = await loadStores(options);
  // The build before the current one: a page loaded just before a swap still asks for its hashed
  // /_astro/ files, which the new build may name differently.
  let previousSite: StaticStore | null = null;
  app.decorate('reloadSite', async () => {
    const next = await loadStores(options, stores);
    previousSite = stores.site;
    stores = next;
  });
  app.decorate('reloadCatalogue', async () => {
    stores = { ...stores, data: await loadCatalogue(options, stores.data) };
  });

  /**
   * The file a decoded path names: a page or asset of the site (or of the build before), or catalogue
   * data. Both callers have already turned /api paths away.
   */
  const findFile = (pathname: string): StaticFile | undefined => {
    const { site, data } = stores;
    if (pathname.startsWith('/data/')) return data.get(pathname);
    return (
      site?.resolve(pathname) ?? (pathname.startsWith('/_astro/') ? previousSite?.get(pathname) : undefined)
    );
  };

  // Built files are answered before Fastify's routing and hooks (DESIGN section 8: >= 0.8x nginx);
  // from the moment the app starts closing, everything goes through Fastify, which answers 503.
  installEarlyHandler(
    app.server,
    (request, response) => !app.isClosing() && serveEarly(request, response, findFile),
    (error) => app.log.error({ err: error }, 'serving a static file failed'),
  );

  app.get('/*', (request, reply) => {
    const { notFoundPage } = stores;
    const pathname = decodedPath(request.url);
    if (pathname === null)
      return notFoundPage ? send(request, reply, notFoundPage, 404) : reply.callNotFound();
    if (isApiPath(pathname)) return reply.callNotFound();
    const file = findFile(pathname);
    if (file) return send(request, reply, file);
    if (pathname.startsWith('/data/')) return reply.callNotFound();
    return notFoundPage ? send(request, reply, notFoundPage, 404) : reply.callNotFound();
  });
};

export default fp(staticSite, { name: 'static-site', dependencies: ['graceful-close'] });
