import type { FastifyPluginAsync } from 'fastify';
import { z } from '../../../contract/zod.ts';
import { HttpError } from '../../http/http-error.ts';
import type { PictureService } from '../../services/pictures/picture-refresh.ts';

/** How long browsers and caches may keep the redirect: short, the address behind it expires. */
const REDIRECT_MAX_AGE_S = 300;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NO_PICTURE = 'This thread has no picture to show.';
/** The thread id in the path (anything else is a 404, like a thread without a picture). */
const MediaParamsSchema = z.object({ id: z.string() });
/** A redirect has no body: the picture is at its Location. */
const RedirectSchema = z.null();

/**
 * `GET /api/media/{thread id}` (decision 025): the stable address of an approved thread's picture.
 * It redirects to the picture's current signed Threads address, refreshed when it is about to
 * expire; 404 when there is none (never approved, no picture, or Threads no longer gives it).
 */
const mediaRoutes: FastifyPluginAsync<{ pictures: PictureService; now?: () => Date }> = async (
  app,
  { pictures, now = () => new Date() },
) => {
  app.get<{ Params: { id: string } }>(
    '/api/media/:id',
    {
      config: { access: 'public' },
      schema: { params: MediaParamsSchema, response: { 302: RedirectSchema } },
    },
    async (request, reply) => {
      // Cards on another origin (a split deployment, a static host) load it as an image.
      void reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
      if (!UUID.test(request.params.id)) throw new HttpError(404, NO_PICTURE);
      const picture = await pictures.current(request.params.id);
      if (!picture) throw new HttpError(404, NO_PICTURE);
      const left = picture.expiresAt
        ? Math.floor((picture.expiresAt.getTime() - now().getTime()) / 1000)
        : REDIRECT_MAX_AGE_S;
      const maxAge = Math.max(0, Math.min(REDIRECT_MAX_AGE_S, left));
      return reply
        .header('Cache-Control', `public, max-age=${maxAge}`)
        .header('Referrer-Policy', 'no-referrer')
        .redirect(picture.url, 302);
    },
  );
};

export default mediaRoutes;
