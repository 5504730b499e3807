import type { FastifyInstance } from 'fastify';
import { parseThreadUrl } from '../../contract/thread-url.ts';
import { graphError } from './graph-error.ts';
import { findLivePost } from './live-posts.ts';
import type { SimulatedThreadsStore } from './store.ts';

type Query = Record<string, string | undefined>;

const HOUR = 3_600_000;
/** Tokenless oEmbed calls one caller may make in a rolling hour (threads-api.md section 5). */
export const OEMBED_CALLS_PER_HOUR = 1_000;
/** The embed's width bounds and default (threads-api.md section 5, `maxwidth`). */
const MIN_WIDTH = 320;
const MAX_WIDTH = 658;

/** The embed markup Threads sends: a blockquote the embed script turns into the post. */
function embedHtml(permalink: string, width: number): string {
  const href = permalink.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return (
    `<blockquote class="text-post-media" data-text-post-permalink="${href}" data-text-post-version="0" ` +
    `style="background:#FFF; max-width:${width}px; min-width:${MIN_WIDTH}px; width:100%;">` +
    `<a href="${href}" target="_blank">View on Threads</a></blockquote>\n` +
    '<script async src="https://www.threads.com/embed.js"></script>'
  );
}

/**
 * oEmbed (threads-api.md section 5): tokenless, 1,000 calls per caller in a rolling hour, then
 * Graph's throttling error (code 4). A live public post gets the rich embed; a deleted, unknown or
 * malformed permalink gets a Graph error (code 100), as a token-bearing call would for a missing object.
 */
export function registerOembedRoutes(
  app: FastifyInstance,
  { store }: { store: SimulatedThreadsStore },
): void {
  // Each caller's call times in the last hour (the simulator's clock, so tests can move it).
  const calls = new Map<string, number[]>();

  app.get<{ Querystring: Query }>('/v1.0/oembed', async (request, reply) => {
    const now = store.now();
    const recent = (calls.get(request.ip) ?? []).filter((at) => at > now - HOUR);
    if (recent.length >= OEMBED_CALLS_PER_HOUR) {
      calls.set(request.ip, recent);
      return graphError(reply, '(#4) Application request limit reached', { code: 4 });
    }
    recent.push(now);
    calls.set(request.ip, recent);

    const { url = '', maxwidth } = request.query;
    let width = MAX_WIDTH;
    if (maxwidth !== undefined) {
      width = Number(maxwidth);
      if (!Number.isInteger(width) || width < MIN_WIDTH || width > MAX_WIDTH)
        return graphError(reply, `Invalid parameter: maxwidth must be ${MIN_WIDTH} to ${MAX_WIDTH}.`);
    }
    // The forms threads-api.md section 5 lists, on threads.com or threads.net (contract/thread-url.ts).
    const permalink = parseThreadUrl(url);
    if (!permalink.ok) return graphError(reply, 'Invalid parameter: url is not a Threads post URL.');
    const post = findLivePost(store, permalink.link);
    if (!post) return graphError(reply, 'Invalid parameter: the post does not exist or cannot be embedded.');
    const canonical = `https://www.threads.com/@${post.username}/post/${post.shortcode}`;
    return {
      type: 'rich',
      version: '1.0',
      html: embedHtml(canonical, width),
      provider_name: 'Threads',
      provider_url: 'https://www.threads.com/',
      width,
    };
  });
}
