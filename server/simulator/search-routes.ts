import type { FastifyInstance } from 'fastify';
import { authorizeCall } from './access.ts';
import { graphError } from './graph-error.ts';
import { isAlive, toMedia } from './seed-media.ts';
import { postsMatchingKeyword, postsWithTag } from './seed-posts.ts';
import type { SimulatedThreadsStore } from './store.ts';

type Query = Record<string, string | undefined>;

/**
 * Keyword and topic-tag search (threads-api.md section 3): needs threads_keyword_search, over the
 * seeded synthetic posts.
 */
export function registerSearchRoutes(
  app: FastifyInstance,
  { store, mediaOrigin }: { store: SimulatedThreadsStore; mediaOrigin: () => string },
): void {
  app.get<{ Querystring: Query }>('/v1.0/keyword_search', async (request, reply) => {
    if (!authorizeCall(store, reply, request.query.access_token, 'threads_keyword_search')) return reply;
    const { q = '', search_mode: mode = 'KEYWORD', search_type: type = 'TOP' } = request.query;
    if (!q.trim()) return graphError(reply, 'The parameter q is required.');
    const limit = Math.min(Math.max(Number(request.query.limit) || 25, 1), 100);
    const found = (mode === 'TAG' ? postsWithTag(q) : postsMatchingKeyword(q)).filter((post) =>
      isAlive(store, post),
    );
    found.sort((a, b) => (type === 'RECENT' ? b.timestamp.localeCompare(a.timestamp) : b.likes - a.likes));
    return { data: found.slice(0, limit).map((post) => toMedia(post, mediaOrigin())) };
  });
}
