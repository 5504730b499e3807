import type { FastifyPluginAsync } from 'fastify';
import {
  GEM_TEXTS,
  GemIdsSchema,
  GemListSchema,
  GemParamsSchema,
  GEMS_MAX,
  GemStateSchema,
  PROFILE_CARDS_MAX,
  type GemIds,
  type GemList,
  type GemState,
} from '../../../contract/gems.ts';
import type { PostDisplay } from '../../../contract/threads-embed.ts';
import type { Database } from '../../db/client.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { createGemsRepository } from '../../repositories/gems.ts';
import { toGemList } from '../../views/gem-views.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The thread id of the path, or a 404 for anything that cannot be one (never a database error). */
function threadIdOf(params: { thread_id: string }): string {
  if (!UUID.test(params.thread_id)) throw new HttpError(404, GEM_TEXTS.threadNotFound);
  return params.thread_id.toLowerCase();
}

/**
 * Gems (issue 10): approved members and admins save approved threads and remove them. A change
 * announces 'profiles', so the public profile cache is cleared and the pre-rendered pages rebuilt.
 */
const gemRoutes: FastifyPluginAsync<{
  db: Database;
  rateLimitMultiplier: number;
  postDisplay: PostDisplay;
}> = async (server, { db, rateLimitMultiplier, postDisplay }) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const gems = createGemsRepository(db);
  const toggle = {
    config: { access: 'member' as const, rateLimit: limit('gemToggle', rateLimitMultiplier) },
    schema: { params: GemParamsSchema, response: { 200: GemStateSchema } },
  };
  const ids = { config: { access: 'user' as const }, schema: { response: { 200: GemIdsSchema } } };
  const list = { config: { access: 'member' as const }, schema: { response: { 200: GemListSchema } } };

  app.get('/api/user/gems/ids', ids, async (request): Promise<GemIds> => {
    const user = await request.authUser();
    if (!(await request.isMember())) return { can_save: false, ids: [] };
    return { can_save: true, ids: await gems.ids(user.id) };
  });

  app.get('/api/user/gems', list, async (request): Promise<GemList> => {
    const user = await request.authUser();
    const newest = (await gems.newestPerMember([user.id], PROFILE_CARDS_MAX)).get(user.id) ?? [];
    const count = (await gems.countPerMember([user.id])).get(user.id) ?? 0;
    return toGemList(newest, count, postDisplay);
  });

  app.put('/api/user/gems/:thread_id', toggle, async (request): Promise<GemState> => {
    const user = await request.authUser();
    const threadId = threadIdOf(request.params);
    const outcome = await db.transaction(async (tx) => {
      await gems.lockMember(user.id, tx);
      const saved = await gems.save(user.id, threadId, tx);
      // Over the cap: throwing rolls the insert back.
      if (saved === 'saved' && (await gems.countStored(user.id, tx)) > GEMS_MAX)
        throw new HttpError(409, GEM_TEXTS.tooMany);
      return saved;
    });
    if (outcome === 'missing') throw new HttpError(404, GEM_TEXTS.threadNotFound);
    if (outcome === 'not-approved') throw new HttpError(409, GEM_TEXTS.notApproved);
    if (outcome === 'saved') app.contentChanged('profiles');
    return { thread_id: threadId, saved: true, count: await visibleCount(user.id) };
  });

  app.delete('/api/user/gems/:thread_id', toggle, async (request): Promise<GemState> => {
    const user = await request.authUser();
    const threadId = threadIdOf(request.params);
    if (await gems.remove(user.id, threadId)) app.contentChanged('profiles');
    return { thread_id: threadId, saved: false, count: await visibleCount(user.id) };
  });

  async function visibleCount(userId: string): Promise<number> {
    return (await gems.countPerMember([userId])).get(userId) ?? 0;
  }
};

export default gemRoutes;
