import type { FastifyInstance } from 'fastify';
import { authorizeCall } from './access.ts';
import { graphError } from './graph-error.ts';
import type { MediaAddressing } from './media-files.ts';
import { isAlive, toMedia } from './seed-media.ts';
import { ownPostsFor, SEED_POSTS } from './seed-posts.ts';
import { containerAnswer, publishedMedia } from './publish-routes.ts';
import type { SimulatedThreadsStore } from './store.ts';

type Query = Record<string, string | undefined>;

/**
 * The media endpoints (threads-api.md sections 2 and 4): the token owner's own posts with cursor
 * pages, single posts and insights.
 */
export function registerMediaRoutes(
  app: FastifyInstance,
  {
    store,
    media,
    accessLevel,
  }: { store: SimulatedThreadsStore; media: MediaAddressing; accessLevel: 'standard' | 'advanced' },
): void {
  app.get<{ Querystring: Query }>('/v1.0/me/threads', async (request, reply) => {
    const owner = authorizeCall(store, reply, request.query.access_token);
    if (!owner) return reply;
    const limit = Math.min(Math.max(Number(request.query.limit) || 25, 1), 100);
    const start = Number(request.query.after ?? 0) || 0;
    // What the user published through the API leads, newest first, then the seeded posts.
    const posts = [
      ...store.publishing.publishedBy(owner.username).map(publishedMedia),
      ...ownPostsFor(owner.username).map((post) => toMedia(post, { store, media })),
    ];
    const page = posts.slice(start, start + limit);
    const more = start + limit < posts.length;
    return {
      data: page,
      paging: {
        cursors: { before: String(start), after: String(start + page.length) },
        ...(more ? { next: 'more' } : {}),
      },
    };
  });

  const findPost = (id: string, username: string) =>
    SEED_POSTS.find((post) => post.id === id && isAlive(store, post)) ??
    ownPostsFor(username).find((post) => post.id === id);

  app.get<{ Params: { id: string }; Querystring: Query }>('/v1.0/:id/insights', async (request, reply) => {
    const owner = authorizeCall(store, reply, request.query.access_token, 'threads_manage_insights');
    if (!owner) return reply;
    // Insights exist only for the token owner's own posts (threads-api.md section 4).
    const post = ownPostsFor(owner.username).find((own) => own.id === request.params.id);
    if (!post) return graphError(reply, 'Insights are only available for your own posts.', { code: 10 });
    return {
      data: [
        { name: 'likes', period: 'lifetime', values: [{ value: post.likes }] },
        { name: 'replies', period: 'lifetime', values: [{ value: post.replies }] },
      ],
    };
  });

  app.get<{ Params: { id: string }; Querystring: Query }>('/v1.0/:id', async (request, reply) => {
    // A publishing container answers its status (threads-api.md section 10, publishing).
    const container = containerAnswer(store, request, reply);
    if (container) return container;
    const owner = authorizeCall(store, reply, request.query.access_token);
    if (!owner) return reply;
    const published = store.published(request.params.id);
    if (published) return publishedMedia(published);
    const post = findPost(request.params.id, owner.username);
    // With standard access another person's post answers exactly like a deleted one: code 100,
    // subcode 33 (threads-api.md sections 3 and 10, access levels).
    const readable = post && (accessLevel === 'advanced' || post.username === owner.username);
    if (!post || !readable)
      return graphError(
        reply,
        `Unsupported get request. Object with ID '${request.params.id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        { subcode: 33 },
      );
    return toMedia(post, { store, media });
  });
}
