import type { FastifyPluginAsync } from 'fastify';
import { z } from '../../../contract/zod.ts';
import { openApiDocument, type DescribedRoute } from '../../http/openapi.ts';
import { htmlPage, jsonText, type JsonText } from '../../http/route-schemas.ts';
import { sessionCookieName } from '../../plugins/session/index.ts';
import { VERSION } from '../../version.ts';
import { DOCS_CSP, docsPageHtml } from './docs-page.ts';

/** Operators may cache the description: it changes only with a new version. */
const CACHE_CONTROL = 'public, max-age=300';

const DESCRIPTION =
  'The Curated Threads API: what the site, its islands and operators call. Signed-in calls carry the session cookie; writes from a browser must come from the site itself.';

/**
 * `GET /api/openapi.json` (OpenAPI 3.1, from the routes' zod schemas) and `GET /api/docs` (the same,
 * readable). Both are built on the first request, when every route has been registered.
 */
const docsRoutes: FastifyPluginAsync<{ secure: boolean }> = async (app, { secure }) => {
  let built: { json: JsonText; html: string } | null = null;
  const build = () => {
    if (built) return built;
    const document = openApiDocument(app.apiRoutes as DescribedRoute[], {
      title: 'Curated Threads API',
      version: VERSION,
      description: DESCRIPTION,
      sessionCookie: sessionCookieName(secure),
    });
    built = { json: jsonText(document), html: docsPageHtml(document) };
    return built;
  };
  // The document itself is any JSON object: its shape is OpenAPI's, checked by the tests.
  const schema = { response: { 200: z.record(z.string(), z.unknown()) } };

  app.get('/api/openapi.json', { config: { access: 'public' }, schema }, async (_request, reply) =>
    reply.header('Cache-Control', CACHE_CONTROL).type('application/json; charset=utf-8').send(build().json),
  );

  const page = { response: { 200: htmlPage } };
  app.get('/api/docs', { config: { access: 'public' }, schema: page }, async (_request, reply) =>
    reply
      .header('Cache-Control', CACHE_CONTROL)
      .header('Content-Security-Policy', DOCS_CSP)
      .type('text/html; charset=utf-8')
      .send(build().html),
  );
};

export default docsRoutes;
