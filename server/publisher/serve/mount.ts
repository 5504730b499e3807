import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodedPath, installEarlyHandler, isApiPath, serveEarly } from './early-static.ts';
import { chooseResponse, matchesETag } from './file-responses.ts';
import type { ServedSite } from './served-site.ts';
import type { StaticFile } from './static-store.ts';

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200) {
  const chosen = chooseResponse(file.responses, request.headers['accept-encoding']);
  if (status === 200 && matchesETag(request.headers['if-none-match'], chosen.etag))
    return reply.status(304).headers(chosen.notModified).send();
  return reply.status(status).headers(chosen.headers).send(chosen.body);
}

/**
 * Answers every path outside /api with the served site and catalogue: built files before Fastify's
 * routing and hooks (DESIGN section 8: >= 0.8x nginx), everything else through a catch-all route
 * (unknown paths get 404.html with status 404). Mount it last: the catch-all must shadow nothing.
 */
export function mountServedSite(app: FastifyInstance, served: ServedSite): void {
  // From the moment the app starts closing, everything goes through Fastify, which answers 503.
  installEarlyHandler(
    app.server,
    (request, response) => !app.isClosing() && serveEarly(request, response, (path) => served.find(path)),
    (error) => app.log.error({ err: error }, 'serving a static file failed'),
  );

  app.get('/*', (request, reply) => {
    const notFoundPage = served.notFoundPage;
    const pathname = decodedPath(request.url);
    if (pathname === null)
      return notFoundPage ? send(request, reply, notFoundPage, 404) : reply.callNotFound();
    if (isApiPath(pathname)) return reply.callNotFound();
    const file = served.find(pathname);
    if (file) return send(request, reply, file);
    if (pathname.startsWith('/data/')) return reply.callNotFound();
    return notFoundPage ? send(request, reply, notFoundPage, 404) : reply.callNotFound();
  });
}
