import type { FastifyPluginAsync } from 'fastify';
import { AuthorPostParamsSchema } from '../../../contract/author-schemas.ts';
import type { AuthorOptOutResult, AuthorOverview, AuthorPostResult } from '../../../contract/authors.ts';
import type { Database } from '../../db/client.ts';
import { parseBody } from '../../http/http-error.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { createAuthorControl, type AuthorPostOutcome } from '../../services/authors/author-control.ts';

export interface AuthorRoutesOptions {
  db: Database;
  rateLimitMultiplier: number;
}

/**
 * Authors in control (decision 028): any signed-in person, invited or not, sees which of their posts
 * the catalogue holds, removes or restores one, and opts out of curation or back in.
 */
const authorRoutes: FastifyPluginAsync<AuthorRoutesOptions> = async (app, { db, rateLimitMultiplier }) => {
  const control = createAuthorControl(db);
  const write = { access: 'user' as const, rateLimit: limit('authorControl', rateLimitMultiplier) };

  /** Tells the site and the caches once the change is committed (a rebuild for an approved post). */
  const announce = ({ post, change }: AuthorPostOutcome): AuthorPostResult => {
    if (change) app.contentChanged(change);
    return { post };
  };

  app.get('/api/authors/me', { config: { access: 'user' } }, async (request): Promise<AuthorOverview> =>
    control.overview(await request.authUser()),
  );

  app.post('/api/authors/me/posts/:id/remove', { config: write }, async (request) => {
    const { id } = parseBody(AuthorPostParamsSchema, request.params);
    return announce(await control.remove(await request.authUser(), id));
  });

  app.post('/api/authors/me/posts/:id/restore', { config: write }, async (request) => {
    const { id } = parseBody(AuthorPostParamsSchema, request.params);
    return announce(await control.restore(await request.authUser(), id));
  });

  app.post('/api/authors/me/opt-out', { config: write }, async (request): Promise<AuthorOptOutResult> => {
    const removed = await control.optOut(await request.authUser());
    // Posts waiting for review are shown nowhere in public: nothing to rebuild.
    return { opted_out: true, removed_from_queue: removed };
  });

  app.delete('/api/authors/me/opt-out', { config: write }, async (request): Promise<AuthorOptOutResult> => {
    await control.optIn(await request.authUser());
    return { opted_out: false, removed_from_queue: 0 };
  });
};

export default authorRoutes;
