import type { FastifyInstance } from 'fastify';
import { authorizeCall } from './access.ts';
import { graphError } from './graph-error.ts';
import type { SimulatedThreadsStore } from './store.ts';

type Fields = Record<string, string | undefined>;

/** The largest text Threads accepts in one post. */
const TEXT_LIMIT = 500;

/**
 * The simulated provider's publishing endpoints (threads-api.md section 7): create a text container,
 * then publish it. Parameters come as a form body or in the query, as Graph accepts both.
 */
export function registerPublishRoutes(
  app: FastifyInstance,
  { store }: { store: SimulatedThreadsStore },
): void {
  const fields = (request: { body?: unknown; query: unknown }): Fields => ({
    ...(request.query as Fields),
    ...((request.body as Fields | undefined) ?? {}),
  });

  app.post('/v1.0/me/threads', async (request, reply) => {
    const input = fields(request);
    const owner = authorizeCall(store, reply, input.access_token, 'threads_content_publish');
    if (!owner) return reply;
    const { username } = owner;
    if (input.media_type !== 'TEXT') return graphError(reply, 'Only TEXT posts are simulated.');
    const text = input.text ?? '';
    if (text.trim() === '') return graphError(reply, 'The parameter text is required.');
    if ([...text].length > TEXT_LIMIT)
      return graphError(reply, `The text is longer than ${TEXT_LIMIT} characters.`);
    return { id: store.createContainer(username, text, input.quote_post_id ?? null) };
  });

  app.post('/v1.0/me/threads_publish', async (request, reply) => {
    const input = fields(request);
    const owner = authorizeCall(store, reply, input.access_token, 'threads_content_publish');
    if (!owner) return reply;
    const { username } = owner;
    const post = store.publishContainer(username, input.creation_id ?? '');
    if (!post) return graphError(reply, 'The media container does not exist or was published.', { code: 24 });
    return { id: post.id };
  });
}
