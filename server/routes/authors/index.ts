import type { FastifyPluginAsync } from 'fastify';
import {
  AuthorCardsResultSchema,
  AuthorOptOutResultSchema,
  type AuthorCardsResult,
  AuthorOverviewSchema,
  AuthorPostParamsSchema,
  AuthorPostResultSchema,
  type AuthorPostResult,
} from '../../../contract/authors.ts';
import type { PostDisplay } from '../../../contract/threads-embed.ts';
import type { Database } from '../../db/client.ts';
import type { User } from '../../repositories/users.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { createAuthorControl, type AuthorPostOutcome } from '../../services/authors/author-control.ts';
import { createCardConsent } from '../../services/authors/card-consent.ts';

export interface AuthorRoutesOptions {
  db: Database;
  rateLimitMultiplier: number;
  postDisplay: PostDisplay;
}

/**
 * Authors in control (decision 028): any signed-in person, invited or not, sees which of their posts
 * the catalogue holds, removes or restores one, and opts out of curation or back in.
 */
const authorRoutes: FastifyPluginAsync<AuthorRoutesOptions> = async (
  server,
  { db, rateLimitMultiplier, postDisplay },
) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const control = createAuthorControl(db, { postDisplay });
  const cardConsent = createCardConsent(db);
  const write = { access: 'user' as const, rateLimit: limit('authorControl', rateLimitMultiplier) };
  const overview = {
    config: { access: 'user' as const },
    schema: { response: { 200: AuthorOverviewSchema } },
  };
  const postChange = {
    config: write,
    schema: { params: AuthorPostParamsSchema, response: { 200: AuthorPostResultSchema } },
  };
  const optOut = { config: write, schema: { response: { 200: AuthorOptOutResultSchema } } };
  const cards = { config: write, schema: { response: { 200: AuthorCardsResultSchema } } };

  /** Tells the site and the caches once the change is committed (a rebuild for an approved post). */
  const announce = ({ post, change }: AuthorPostOutcome): AuthorPostResult => {
    if (change) app.contentChanged(change);
    return { post };
  };

  app.get('/api/authors/me', overview, async (request) => control.overview(await request.authUser()));

  app.post('/api/authors/me/posts/:id/remove', postChange, async (request) => {
    return announce(await control.remove(await request.authUser(), request.params.id));
  });

  app.post('/api/authors/me/posts/:id/restore', postChange, async (request) => {
    return announce(await control.restore(await request.authUser(), request.params.id));
  });

  app.post('/api/authors/me/opt-out', optOut, async (request) => {
    const removed = await control.optOut(await request.authUser());
    // Posts waiting for review are shown nowhere in public: nothing to rebuild.
    return { opted_out: true, removed_from_queue: removed };
  });

  app.delete('/api/authors/me/opt-out', optOut, async (request) => {
    await control.optIn(await request.authUser());
    return { opted_out: false, removed_from_queue: 0 };
  });

  /** 'Show my posts as cards' on or off: the posts on show change look, so the site is rebuilt. */
  const setCards = async (
    shown: boolean,
    request: { authUser(): Promise<User> },
  ): Promise<AuthorCardsResult> => {
    const outcome = await cardConsent.set(await request.authUser(), shown);
    if (outcome.changedOnSite > 0) app.contentChanged('threads');
    return { shown_as_cards: outcome.shown, changed_on_site: outcome.changedOnSite };
  };

  app.post('/api/authors/me/cards', cards, async (request) => setCards(true, request));
  app.delete('/api/authors/me/cards', cards, async (request) => setCards(false, request));
};

export default authorRoutes;
