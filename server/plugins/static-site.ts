import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { StaticStore, type StaticFile } from '../site/static-store.ts';

export interface StaticSiteOptions {
  /** The built site (Astro's dist). */
  siteDir: string;
  /** The public catalogue, served at /data/*. */
  catalogueDir: string;
  secure: boolean;
}

/** Hashed build assets never change; pages and data are revalidated on every visit. */
export function siteCacheControl(urlPath: string): string {
  if (urlPath.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (urlPath.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

function accepts(header: string | undefined, coding: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== coding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200) {
  let body = file.body;
  let etag = file.etag;
  const acceptEncoding = request.headers['accept-encoding'];
  if (file.br && accepts(acceptEncoding, 'br')) {
    body = file.br;
    etag = `${file.etag.slice(0, -1)}-br"`;
    reply.header('Content-Encoding', 'br');
  } else if (file.gzip && accepts(acceptEncoding, 'gzip')) {
    body = file.gzip;
    etag = `${file.etag.slice(0, -1)}-gz"`;
    reply.header('Content-Encoding', 'gzip');
  }
  reply
    .header('Content-Type', file.contentType)
    .header('Cache-Control', file.cacheControl)
    .header('ETag', etag);
  if (file.br || file.gzip) reply.header('Vary', 'Accept-Encoding');
  if (file.csp) reply.header('Content-Security-Policy', file.csp);
  const ifNoneMatch = request.headers['if-none-match'];
  if (status === 200 && ifNoneMatch?.split(',').some((tag) => tag.trim() === etag)) {
    reply.removeHeader('Content-Encoding');
    return reply.status(304).send();
  }
  return reply.status(status).send(body);
}

/**
 * Serves the built site and the public catalogue from memory: both folders are read and
 * precompressed once at start. Unknown paths get 404.html with status 404.
 */
const staticSite: FastifyPluginAsync<StaticSiteOptions> = async (app, options) => {
  const [site, data] = await Promise.all([
    StaticStore.load(options.siteDir, '', { cacheControl: siteCacheControl, secure: options.secure }),
    StaticStore.load(options.catalogueDir, '/data', {
      cacheControl: () => 'no-cache',
      secure: options.secure,
    }),
  ]);
  const notFoundPage = site.get('/404.html');
  if (!notFoundPage)
    throw new Error(`The built site in ${options.siteDir} has no 404.html; run npm run build.`);
  app.log.debug({ siteFiles: site.size, dataFiles: data.size }, 'static files loaded');

  app.get('/*', (request, reply) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(request.url.split('?', 1)[0] ?? '/');
    } catch {
      return send(request, reply, notFoundPage, 404);
    }
    if (pathname === '/api' || pathname.startsWith('/api/')) return reply.callNotFound();
    if (pathname.startsWith('/data/')) {
      const file = data.get(pathname);
      return file ? send(request, reply, file) : reply.callNotFound();
    }
    const file = site.resolve(pathname);
    return file ? send(request, reply, file) : send(request, reply, notFoundPage, 404);
  });
};

export default fp(staticSite, { name: 'static-site' });
