import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../http/route-schemas.ts';
import { authorizeCall } from './access.ts';
import { CONTROLS_PATH } from './faults.ts';
import { graphError } from './graph-error.ts';
import { PUBLISHING_QUOTA, type PublishedPost, type PublishRefusal } from './publishing-store.ts';
import type { SimulatedThreadsStore } from './store.ts';

type Fields = Record<string, string | undefined>;

/** The largest text Threads accepts in one post. */
const TEXT_LIMIT = 500;

/**
 * What Graph answers when a container cannot be published. Meta documents no codes for these;
 * publishing a container that is not ready is answered code 24, subcode 4279009 "The requested
 * resource does not exist" ("Media Not Found") in practice (fbsamples/threads_api#70), and we answer
 * every unpublishable container so. The limit answers code 4 (request limit reached, a throttle:
 * wait, do not give up) with Instagram's content-publishing subcode 2207042 (UNCONFIRMED for Threads).
 */
const REFUSALS: Record<PublishRefusal, { message: string; code: number; subcode: number }> = {
  not_found: { message: 'The requested resource does not exist', code: 24, subcode: 4279009 },
  not_ready: { message: 'The requested resource does not exist', code: 24, subcode: 4279009 },
  expired: { message: 'The requested resource does not exist', code: 24, subcode: 4279009 },
  error: { message: 'The requested resource does not exist', code: 24, subcode: 4279009 },
  published: { message: 'The media container was already published.', code: 24, subcode: 4279009 },
  quota: {
    message: `(#4) The account reached its limit of ${PUBLISHING_QUOTA.total} posts in 24 hours.`,
    code: 4,
    subcode: 2207042,
  },
};

const fields = (request: { body?: unknown; query: unknown }): Fields => ({
  ...(request.query as Fields),
  ...((request.body as Fields | undefined) ?? {}),
});

const requested = (query: Fields, field: string) =>
  query.fields === undefined || query.fields.split(',').includes(field);

/**
 * The simulated provider's publishing endpoints (threads-api.md sections 7 and 10): create a text
 * container, publish it once it is FINISHED and within 250 posts a day, and the limit itself.
 * Parameters come as a form body or in the query, as Graph accepts both.
 */
export function registerPublishRoutes(
  app: FastifyInstance,
  { store }: { store: SimulatedThreadsStore },
): void {
  const { publishing } = store;

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
    return { id: publishing.createContainer(username, text, input.quote_post_id ?? null) };
  });

  app.post('/v1.0/me/threads_publish', async (request, reply) => {
    const input = fields(request);
    const owner = authorizeCall(store, reply, input.access_token, 'threads_content_publish');
    if (!owner) return reply;
    const post = publishing.publish(owner.username, input.creation_id ?? '');
    if (typeof post === 'string') {
      const { message, code, subcode } = REFUSALS[post];
      return graphError(reply, message, { code, subcode, type: 'OAuthException' });
    }
    return { id: post.id };
  });

  // The publishing limit (threads-api.md section 7): posts used in the rolling 24 hours.
  app.get<{ Querystring: Fields }>('/v1.0/me/threads_publishing_limit', async (request, reply) => {
    const owner = authorizeCall(store, reply, request.query.access_token, 'threads_content_publish');
    if (!owner) return reply;
    return {
      data: [
        {
          ...(requested(request.query, 'quota_usage')
            ? { quota_usage: publishing.quotaUsage(owner.username) }
            : {}),
          ...(requested(request.query, 'config')
            ? {
                config: {
                  quota_total: PUBLISHING_QUOTA.total,
                  quota_duration: PUBLISHING_QUOTA.durationSeconds,
                },
              }
            : {}),
        },
      ],
    };
  });
}

/** A post published through the API as Graph's media object (threads-api.md section 2). */
export function publishedMedia(post: PublishedPost) {
  return {
    id: post.id,
    media_product_type: 'THREADS',
    media_type: 'TEXT_POST',
    permalink: `https://www.threads.com/@${post.username}/post/${post.shortcode}`,
    shortcode: post.shortcode,
    username: post.username,
    text: post.text,
    timestamp: post.timestamp.replace(/\.\d{3}Z$/, '+0000'),
    ...(post.quotePostId ? { is_quote_post: true } : {}),
  };
}

/**
 * `GET /{container-id}?fields=status,error_message` (threads-api.md section 10, publishing): the
 * answer when the id is one of the token owner's containers, or null to let the media endpoint
 * answer (a post, or "does not exist"). Called first by `GET /v1.0/:id`.
 */
export function containerAnswer(
  store: SimulatedThreadsStore,
  request: FastifyRequest<{ Params: { id: string }; Querystring: Fields }>,
  reply: FastifyReply,
): FastifyReply | { id: string; status?: string; error_message?: string } | null {
  const token = request.query.access_token;
  const username = store.grantOf(token ?? '')?.username;
  const state = username ? store.publishing.state(username, request.params.id) : null;
  if (!state) return null;
  if (!authorizeCall(store, reply, token)) return reply;
  return {
    id: request.params.id,
    ...(requested(request.query, 'status') ? { status: state.status } : {}),
    ...(state.errorMessage && requested(request.query, 'error_message')
      ? { error_message: state.errorMessage }
      : {}),
  };
}

const ProcessingSchema = z
  .object({
    /** slow: the next containers stay IN_PROGRESS for a while; error: they end in ERROR. */
    outcome: z.enum(['slow', 'error']),
    /** How long they stay IN_PROGRESS: a minute when slow, none before an ERROR unless given. */
    processing_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .optional(),
    error_message: z.string().min(1).max(300).default('The media could not be processed.'),
    times: z.number().int().min(1).max(1000).default(1),
  })
  .strict();

/**
 * Test controls (SIMULATED_CONTROLS=true only): `POST /_controls/containers` makes the next
 * containers slow (IN_PROGRESS for `processing_seconds` of the provider's clock) or fail (ERROR with
 * `error_message`); `DELETE` makes them finish at once again, like text containers do.
 */
export function registerContainerControls(app: FastifyInstance, store: SimulatedThreadsStore): void {
  app.post(`${CONTROLS_PATH}/containers`, async (request, reply) => {
    const body = parseWith(ProcessingSchema, request.body);
    store.publishing.setProcessing([
      {
        outcome: body.outcome,
        processingMs: (body.processing_seconds ?? (body.outcome === 'slow' ? 60 : 0)) * 1000,
        errorMessage: body.error_message,
        times: body.times,
      },
    ]);
    return reply.status(204).send();
  });

  app.delete(`${CONTROLS_PATH}/containers`, async (_request, reply) => {
    store.publishing.setProcessing([]);
    return reply.status(204).send();
  });
}
