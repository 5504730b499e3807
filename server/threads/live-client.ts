import {
  redactSecrets,
  type ContainerStatus,
  ThreadsApiError,
  type ThreadsAccount,
  type ThreadsGateway,
} from './gateway.ts';
import { createGraphHttp, form, rawUserId, type GraphHttpOptions } from './graph-http.ts';
import { nextCursor, POST_FIELDS, postList, readInsights, toThreadsPost } from './media.ts';

export interface ThreadsClientOptions extends GraphHttpOptions {
  appId: string;
  appSecret: string;
}

const CONTAINER_STATUSES: readonly string[] = ['IN_PROGRESS', 'FINISHED', 'PUBLISHED', 'EXPIRED', 'ERROR'];

const hasMediaId = (v: Partial<{ id: string }>) => typeof v.id === 'string' && /^\d+$/.test(v.id);

/** The Threads API over HTTP (threads-api.md sections 1, 2, 3, 4 and 7). */
export function createThreadsClient(options: ThreadsClientOptions): ThreadsGateway {
  const { call, json, parse, grant } = createGraphHttp(options);

  const client: ThreadsGateway = {
    async exchangeCode(code, redirectUri) {
      const text = await call('/oauth/access_token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: options.appId,
          client_secret: options.appSecret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code,
        }),
      });
      const body = parse<{ access_token: string }>(
        text,
        (v) => typeof v.access_token === 'string',
        'code exchange',
      );
      const userId = rawUserId(text);
      if (!userId) throw new ThreadsApiError('Threads sent no user id with the token.', 'unavailable', 200);
      return { accessToken: body.access_token, userId };
    },

    async appToken() {
      // Documented as a GET (threads-api.md section 1): the secret travels server to server only.
      const query = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: options.appId,
        client_secret: options.appSecret,
      });
      const body = parse<{ access_token: string }>(
        await call(`/oauth/access_token?${query}`),
        (v) => typeof v.access_token === 'string' && v.access_token.length > 0,
        'app token',
      );
      return body.access_token;
    },

    async exchangeForLongLived(shortLivedToken) {
      const query = new URLSearchParams({
        grant_type: 'th_exchange_token',
        client_secret: options.appSecret,
        access_token: shortLivedToken,
      });
      return grant(await call(`/access_token?${query}`), 'token exchange');
    },

    async refreshToken(longLivedToken) {
      const query = new URLSearchParams({ grant_type: 'th_refresh_token', access_token: longLivedToken });
      return grant(await call(`/refresh_access_token?${query}`), 'token refresh');
    },

    async keywordSearch(accessToken, { q, mode, type, limit = 100, since, after }) {
      const query = new URLSearchParams({
        q,
        search_mode: mode,
        search_type: type,
        limit: String(Math.min(Math.max(limit, 1), 100)),
        fields: POST_FIELDS,
        access_token: accessToken,
      });
      if (since) query.set('since', String(Math.floor(since.getTime() / 1000)));
      if (after) query.set('after', after);
      const body = json(await call(`/v1.0/keyword_search?${query}`), 'search');
      return { ...postList(body), next: nextCursor(body) };
    },

    async ownThreads(accessToken, after) {
      const query = new URLSearchParams({ fields: POST_FIELDS, limit: '50', access_token: accessToken });
      if (after) query.set('after', after);
      const body = json(await call(`/v1.0/me/threads?${query}`), 'thread list');
      return { ...postList(body), next: nextCursor(body) };
    },

    async post(accessToken, mediaId) {
      if (!/^\d+$/.test(mediaId)) throw new ThreadsApiError('Not a Threads media id.', 'rejected', null);
      const query = new URLSearchParams({ fields: POST_FIELDS, access_token: accessToken });
      try {
        return toThreadsPost(json(await call(`/v1.0/${mediaId}?${query}`), 'post'));
      } catch (error) {
        // Code 100, subcode 33: deleted, or not readable with this access level (not the same thing).
        if (error instanceof ThreadsApiError && error.subcode === 33) return null;
        throw error;
      }
    },

    async debugToken(accessToken) {
      const query = new URLSearchParams({ input_token: accessToken, access_token: accessToken });
      const text = await call(`/v1.0/debug_token?${query}`);
      const body = parse<{ data: { scopes?: unknown; expires_at?: unknown } }>(
        text,
        (v) => typeof v.data === 'object' && v.data !== null && Array.isArray(v.data.scopes),
        'token check',
      );
      const { scopes, expires_at: expiresAt } = body.data;
      return {
        // A bare 17-digit number would be rounded by JSON.parse: read it from the raw body.
        userId: rawUserId(text) ?? '',
        scopes: (scopes as unknown[]).filter((scope): scope is string => typeof scope === 'string'),
        expiresAt: typeof expiresAt === 'number' && expiresAt > 0 ? new Date(expiresAt * 1000) : null,
      };
    },

    async insights(accessToken, mediaId) {
      if (!/^\d+$/.test(mediaId)) throw new ThreadsApiError('Not a Threads media id.', 'rejected', null);
      const query = new URLSearchParams({ metric: 'likes,replies', access_token: accessToken });
      return readInsights(json(await call(`/v1.0/${mediaId}/insights?${query}`), 'insights'));
    },

    async createTextContainer(accessToken, { text, quotePostId }) {
      const fields = { media_type: 'TEXT', text, ...(quotePostId ? { quote_post_id: quotePostId } : {}) };
      return parse<{ id: string }>(
        await call('/v1.0/me/threads', form(accessToken, fields)),
        hasMediaId,
        'container',
      ).id;
    },

    async containerStatus(accessToken, creationId) {
      if (!/^\d+$/.test(creationId)) throw new ThreadsApiError('Not a container id.', 'rejected', null);
      const query = new URLSearchParams({ fields: 'id,status,error_message', access_token: accessToken });
      const body = parse<{ status: ContainerStatus; error_message?: unknown }>(
        await call(`/v1.0/${creationId}?${query}`),
        (v) => typeof v.status === 'string' && CONTAINER_STATUSES.includes(v.status),
        'container status',
      );
      return {
        status: body.status,
        errorMessage: typeof body.error_message === 'string' ? redactSecrets(body.error_message) : null,
      };
    },

    async publishContainer(accessToken, creationId) {
      const published = parse<{ id: string }>(
        await call('/v1.0/me/threads_publish', form(accessToken, { creation_id: creationId }), {
          once: true,
        }),
        hasMediaId,
        'publish',
      );
      // The permalink is a nicety: the post exists even when this read fails.
      const permalink = await client.post(accessToken, published.id).then(
        (post) => post?.permalink ?? null,
        () => null,
      );
      return { id: published.id, permalink };
    },

    async publishingQuota(accessToken) {
      const query = new URLSearchParams({ fields: 'quota_usage,config', access_token: accessToken });
      const body = json(await call(`/v1.0/me/threads_publishing_limit?${query}`), 'publishing limit');
      const entry = (
        body as { data?: { quota_usage?: unknown; config?: { quota_total?: unknown } }[] } | null
      )?.data?.[0];
      const used = entry?.quota_usage;
      const limit = entry?.config?.quota_total;
      if (typeof used !== 'number' || typeof limit !== 'number')
        throw new ThreadsApiError('Threads sent an unexpected publishing limit answer.', 'unavailable', 200);
      return { used, limit };
    },

    async me(accessToken): Promise<ThreadsAccount> {
      const query = new URLSearchParams({ fields: 'id,username', access_token: accessToken });
      const body = parse<ThreadsAccount>(
        await call(`/v1.0/me?${query}`),
        (v) => typeof v.id === 'string' && typeof v.username === 'string',
        'profile',
      );
      return { id: body.id, username: body.username };
    },
  };
  return client;
}
