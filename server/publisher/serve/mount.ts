import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { CatalogueAnswer } from './disk-catalogue.ts';
import { decodedPath, installEarlyHandler, isApiPath, serveEarly } from './early-static.ts';
import { chooseResponse, matchesETag } from './file-responses.ts';
import type { ServedSite } from './served-site.ts';
import type { StaticFile } from './static-store.ts';
import { SOCIAL_PREFIX } from '../../../contract/social-image.ts';
import type { SocialImages } from './social-route.ts';
import { answerThreadPage, THREAD_PAGE_PREFIX, type ThreadPageOptions } from './thread-route.ts';

/** What a page answers while the first site is built (a first start on a large catalogue takes minutes). */
export const BUILDING_TEXT =
  'Curated Threads is building its site for the first time. Please try again in a minute.';
const BUILDING_RETRY_SECONDS = 30;

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200) {
  const chosen = chooseResponse(file.responses, request.headers['accept-encoding']);
  if (status === 200 && matchesETag(request.headers['if-none-match'], chosen.etag))
    return reply.status(304).headers(chosen.notModified).send();
  return reply.status(status).headers(chosen.headers).send(chosen.body);
}

function sendCatalogue(request: FastifyRequest, reply: FastifyReply, answer: CatalogueAnswer) {
  reply.status(answer.status).headers(answer.headers);
  if (answer.status === 304) return reply.send();
  // Trap: Fastify's HEAD route sets Content-Length: 0 for an absent body, but keeps ours for a
  // stream it discards; an empty stream keeps the large file's length without opening it.
  if (request.method === 'HEAD' && !answer.body) return reply.send(Readable.from([]));
  return reply.send(answer.body);
}

/**
 * Answers every path outside /api with the served site and catalogue: built files and catalogue
 * data before Fastify's routing and hooks (DESIGN section 8: >= 0.8x nginx), everything else through
 * a catch-all route (unknown paths get 404.html with status 404, unknown data a JSON 404). With
 * `threadPages`, `/thread/{id}` is filled from the database (decision 046); with `socialImages`,
 * `/social/{kind}/{key}.png` is drawn (decision 048). Mount it last: the
 * catch-all must shadow nothing.
 */
export function mountServedSite(
  app: FastifyInstance,
  served: ServedSite,
  threadPages?: ThreadPageOptions,
  socialImages?: SocialImages,
): void {
  // From the moment the app starts closing, everything goes through Fastify, which answers 503.
  installEarlyHandler(
    app.server,
    (request, response, fallback) => !app.isClosing() && serveEarly(request, response, served, fallback),
    (error) => app.log.error({ err: error }, 'serving a static file failed'),
  );

  app.get('/*', async (request, reply) => {
    const notFoundPage = served.notFoundPage;
    const pathname = decodedPath(request.url);
    if (pathname === null)
      return notFoundPage ? send(request, reply, notFoundPage, 404) : reply.callNotFound();
    if (isApiPath(pathname)) return reply.callNotFound();
    if (pathname.startsWith('/data/')) {
      const answer = await served.catalogue.answer(pathname, {
        method: request.method === 'HEAD' ? 'HEAD' : 'GET',
        acceptEncoding: request.headers['accept-encoding'],
        ifNoneMatch: request.headers['if-none-match'],
      });
      return answer ? sendCatalogue(request, reply, answer) : reply.callNotFound();
    }
    const file = served.find(pathname);
    if (file) return send(request, reply, file);
    if (threadPages && pathname.startsWith(THREAD_PAGE_PREFIX)) {
      const template = served.threadTemplate ?? (await threadPages.devTemplate?.());
      if (template && (await answerThreadPage(request, reply, pathname, template, threadPages))) return reply;
    }
    if (socialImages && pathname.startsWith(SOCIAL_PREFIX)) {
      if (await socialImages.answer(request, reply, pathname)) return reply;
    }
    if (served.building)
      return reply
        .status(503)
        .header('retry-after', String(BUILDING_RETRY_SECONDS))
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(BUILDING_TEXT);
    return notFoundPage ? send(request, reply, notFoundPage, 404) : reply.callNotFound();
  });
}
