import type { FastifyInstance } from 'fastify';
import { EMBED_SCRIPT } from './embed-script.ts';
import { embedPageCsp, embedPostPage, unavailablePostPage } from './embed-page.ts';
import { findLivePost } from './live-posts.ts';
import { mediaAddress, type MediaAddressing } from './media-files.ts';
import type { SimulatedThreadsStore } from './store.ts';

/** A shortcode as Threads writes them; anything else names no post. */
const SHORTCODE = /^[A-Za-z0-9_-]{1,64}$/;
const USERNAME = /^[A-Za-z0-9._]{1,30}$/;

/**
 * The stand-in for Threads' embed (decision 070): `embed.js`, which pages load as they would Meta's,
 * and the post page its iframes show. Both are meant for pages on another origin than the API's.
 */
export function registerEmbedRoutes(
  app: FastifyInstance,
  { store, media }: { store: SimulatedThreadsStore; media: MediaAddressing },
): void {
  const csp = embedPageCsp(media.origin);

  app.get('/embed.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      // Loaded by the site's pages, which may be on another origin than the API's.
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .header('Cache-Control', 'public, max-age=300')
      .send(EMBED_SCRIPT),
  );

  app.get<{ Params: { shortcode: string }; Querystring: { username?: string } }>(
    '/embed/post/:shortcode',
    async (request, reply) => {
      const { shortcode } = request.params;
      const username = request.query.username ?? null;
      const post =
        SHORTCODE.test(shortcode) && (username === null || USERNAME.test(username))
          ? findLivePost(store, { username, shortcode })
          : null;
      const index = post && 'imageIndex' in post ? post.imageIndex : null;
      const picture = index !== null ? mediaAddress(store, media, index) : null;
      return (
        reply
          .status(post ? 200 : 404)
          .type('text/html; charset=utf-8')
          // Framed by the site's pages: its own CSP replaces the app's frame-ancestors 'none'.
          .header('Content-Security-Policy', csp)
          .header('Cache-Control', 'no-store')
          .send(post ? embedPostPage(post, picture) : unavailablePostPage())
      );
    },
  );
}
