import type { FastifyInstance, FastifyReply } from 'fastify';
import { authorizeCall } from './access.ts';
import { graphError } from './graph-error.ts';
import type { MediaAddressing } from './media-files.ts';
import { isAlive, toMedia } from './seed-media.ts';
import { ownPostsFor, SEED_POSTS, type SeedPost } from './seed-posts.ts';
import type { SimulatedThreadsStore } from './store.ts';

type Query = Record<string, string | undefined>;

/** Keyword searches per user per rolling 24 hours, shared by every app (threads-api.md section 3). */
export const SEARCH_QUOTA = 2200;
/** The earliest `since` or `until` Graph accepts (sections 2 and 3). */
export const EARLIEST_SINCE = 1_688_540_400;

export interface SearchRouteOptions {
  store: SimulatedThreadsStore;
  media: MediaAddressing;
  /** SIMULATED_ACCESS_LEVEL: standard searches only the token owner's posts (sections 3 and 10). */
  accessLevel: 'standard' | 'advanced';
}

/** Unix seconds of a `since`/`until` parameter; undefined when absent, NaN when not allowed. */
function unixSeconds(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seconds = /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
  return seconds >= EARLIEST_SINCE ? seconds : Number.NaN;
}

/** The `after` cursor: an opaque token for an offset into the result list. */
const cursorFor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const match = /^offset:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : Number.NaN;
}

const MEDIA_TYPES: Record<string, SeedPost['mediaType']> = {
  TEXT: 'TEXT_POST',
  IMAGE: 'IMAGE',
  VIDEO: 'VIDEO',
};

function matches(post: SeedPost, q: string, mode: string): boolean {
  if (mode === 'TAG') return post.topicTag?.toLowerCase() === q.trim().replace(/^#/, '').toLowerCase();
  return post.text.toLowerCase().includes(q.trim().toLowerCase());
}

/** Graph's refusal of a bad parameter (code 100, invalid parameter). */
const invalid = (reply: FastifyReply, message: string) => graphError(reply, `(#100) ${message}`);

/**
 * Keyword and topic-tag search (threads-api.md section 3): needs threads_keyword_search; TOP (most
 * liked first) or RECENT (newest first); `since`/`until` in Unix seconds; `limit` 1..100 (default
 * 25); cursor pages. With standard access it covers only the token owner's own posts, with advanced
 * the public (seeded) ones. 2,200 queries per user per rolling 24 hours; empty answers are free.
 */
export function registerSearchRoutes(
  app: FastifyInstance,
  { store, media, accessLevel }: SearchRouteOptions,
): void {
  app.get<{ Querystring: Query }>('/v1.0/keyword_search', async (request, reply) => {
    const owner = authorizeCall(store, reply, request.query.access_token, 'threads_keyword_search');
    if (!owner) return reply;
    const { q = '', search_mode: mode = 'KEYWORD', search_type: type = 'TOP' } = request.query;
    if (!q.trim()) return invalid(reply, 'The parameter q is required.');
    if (mode !== 'KEYWORD' && mode !== 'TAG') return invalid(reply, 'search_mode must be KEYWORD or TAG.');
    if (type !== 'TOP' && type !== 'RECENT') return invalid(reply, 'search_type must be TOP or RECENT.');
    const limit = request.query.limit === undefined ? 25 : Number(request.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return invalid(reply, 'limit must be a whole number from 1 to 100.');
    const since = unixSeconds(request.query.since);
    const until = unixSeconds(request.query.until);
    if (Number.isNaN(since) || Number.isNaN(until))
      return invalid(reply, `since and until must be Unix timestamps no earlier than ${EARLIEST_SINCE}.`);
    const wantedType = request.query.media_type;
    if (wantedType !== undefined && !(wantedType in MEDIA_TYPES))
      return invalid(reply, 'media_type must be TEXT, IMAGE or VIDEO.');
    const start = offsetOf(request.query.after);
    if (Number.isNaN(start)) return invalid(reply, 'The after cursor is not valid.');
    // Over the quota Graph answers a throttling error. Code 613 ("calls to this api have exceeded the
    // rate limit") is the one Graph uses for an endpoint's own limit, which the search quota is,
    // rather than 4 (the app's) or 17 (the user's overall call budget) (section 7).
    if (store.searchesInWindow(owner.username) >= SEARCH_QUOTA)
      return graphError(reply, '(#613) Calls to this api have exceeded the rate limit.', { code: 613 });

    const pool = accessLevel === 'standard' ? ownPostsFor(owner.username) : SEED_POSTS;
    const found = pool.filter((post) => {
      const at = Date.parse(post.timestamp) / 1000;
      return (
        isAlive(store, post) &&
        matches(post, q, mode) &&
        (since === undefined || at >= since) &&
        (until === undefined || at <= until) &&
        (wantedType === undefined || MEDIA_TYPES[wantedType] === post.mediaType)
      );
    });
    found.sort((a, b) =>
      type === 'RECENT'
        ? b.timestamp.localeCompare(a.timestamp)
        : b.likes - a.likes || b.id.localeCompare(a.id),
    );
    const page = found.slice(start, start + limit);
    // Queries returning nothing do not count (section 3); every other one does, pages included.
    if (page.length > 0) store.countSearch(owner.username);
    const end = start + page.length;
    // Meta's `next` repeats the token; ours leaves it out (a client pages with the cursor).
    const next = new URLSearchParams(request.query as Record<string, string>);
    next.delete('access_token');
    next.set('after', cursorFor(end));
    return {
      data: page.map((post) => toMedia(post, { store, media, textType: 'TEXT' })),
      ...(page.length > 0
        ? {
            paging: {
              cursors: { before: cursorFor(start), after: cursorFor(end) },
              ...(end < found.length ? { next: `${media.origin}/v1.0/keyword_search?${next}` } : {}),
            },
          }
        : {}),
    };
  });
}
