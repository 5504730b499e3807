import type { FastifyInstance, FastifyReply } from 'fastify';
import { ownPostsFor, postsMatchingKeyword, postsWithTag, SEED_POSTS, type SeedPost } from './seed-posts.ts';
import { graphError, invalidToken } from './graph-error.ts';
import type { SimulatedThreadsStore } from './store.ts';

type Query = Record<string, string | undefined>;
const HOUR = 3_600_000;

/**
 * The simulated provider's content endpoints (DESIGN section 6): keyword and tag search, the user's
 * own posts with cursor pages, single posts and insights, over the seeded synthetic posts. Some seeded
 * posts disappear some hours after start, so the deletion sync has something to find.
 */
export function registerContentRoutes(
  app: FastifyInstance,
  { store, mediaOrigin }: { store: SimulatedThreadsStore; mediaOrigin: () => string },
): void {
  const alive = (post: SeedPost) =>
    post.disappearsAfterHours === null || store.now() < store.startedAt + post.disappearsAfterHours * HOUR;

  const media = (post: SeedPost) => ({
    id: post.id,
    media_product_type: 'THREADS',
    media_type: post.mediaType,
    ...(post.imageIndex === null
      ? {}
      : {
          media_url: `${mediaOrigin()}/sample/images/design-${String(post.imageIndex).padStart(2, '0')}.webp`,
        }),
    permalink: `https://www.threads.com/@${post.username}/post/${post.shortcode}`,
    shortcode: post.shortcode,
    username: post.username,
    text: post.text,
    timestamp: post.timestamp.replace(/\.\d{3}Z$/, '+0000'),
    ...(post.topicTag ? { topic_tag: post.topicTag } : {}),
  });

  /** The username behind the request's token, or an answer already sent. */
  const owner = (query: Query, reply: FastifyReply): string | null => {
    const username = store.owner(query.access_token ?? '');
    if (!username) void invalidToken(reply);
    return username;
  };

  app.get<{ Querystring: Query }>('/v1.0/keyword_search', async (request, reply) => {
    if (!owner(request.query, reply)) return reply;
    const { q = '', search_mode: mode = 'KEYWORD', search_type: type = 'TOP' } = request.query;
    if (!q.trim()) return graphError(reply, 'The parameter q is required.');
    const limit = Math.min(Math.max(Number(request.query.limit) || 25, 1), 100);
    const found = (mode === 'TAG' ? postsWithTag(q) : postsMatchingKeyword(q)).filter(alive);
    found.sort((a, b) => (type === 'RECENT' ? b.timestamp.localeCompare(a.timestamp) : b.likes - a.likes));
    return { data: found.slice(0, limit).map(media) };
  });

  app.get<{ Querystring: Query }>('/v1.0/me/threads', async (request, reply) => {
    const username = owner(request.query, reply);
    if (!username) return reply;
    const limit = Math.min(Math.max(Number(request.query.limit) || 25, 1), 100);
    const start = Number(request.query.after ?? 0) || 0;
    const posts = ownPostsFor(username);
    const page = posts.slice(start, start + limit);
    const more = start + limit < posts.length;
    return {
      data: page.map(media),
      paging: {
        cursors: { before: String(start), after: String(start + page.length) },
        ...(more ? { next: 'more' } : {}),
      },
    };
  });

  const findPost = (id: string, username: string) =>
    SEED_POSTS.find((post) => post.id === id && alive(post)) ??
    ownPostsFor(username).find((post) => post.id === id);

  app.get<{ Params: { id: string }; Querystring: Query }>('/v1.0/:id/insights', async (request, reply) => {
    const username = owner(request.query, reply);
    if (!username) return reply;
    // Insights exist only for the token owner's own posts.
    const post = ownPostsFor(username).find((own) => own.id === request.params.id);
    if (!post) return graphError(reply, 'Insights are only available for your own posts.', { code: 10 });
    return {
      data: [
        { name: 'likes', period: 'lifetime', values: [{ value: post.likes }] },
        { name: 'replies', period: 'lifetime', values: [{ value: post.replies }] },
      ],
    };
  });

  app.get<{ Params: { id: string }; Querystring: Query }>('/v1.0/:id', async (request, reply) => {
    const username = owner(request.query, reply);
    if (!username) return reply;
    const published = store.published(request.params.id);
    if (published)
      return {
        id: published.id,
        media_product_type: 'THREADS',
        media_type: 'TEXT_POST',
        permalink: `https://www.threads.com/@${published.username}/post/${published.shortcode}`,
        shortcode: published.shortcode,
        username: published.username,
        text: published.text,
        timestamp: published.timestamp.replace(/\.\d{3}Z$/, '+0000'),
        ...(published.quotePostId ? { is_quote_post: true } : {}),
      };
    const post = findPost(request.params.id, username);
    if (!post)
      return graphError(
        reply,
        `Unsupported get request. Object with ID '${request.params.id}' does not exist.`,
        { subcode: 33 },
      );
    return media(post);
  });
}
