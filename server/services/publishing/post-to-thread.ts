import { parseThreadUrl } from '../../../contract/thread-url.ts';
import type { NewThread } from '../../repositories/threads.ts';
import type { PostInsights, ThreadsGateway, ThreadsPost } from '../../threads/gateway.ts';
import type { Grant } from '../tokens/token-store.ts';

/**
 * When a signed Threads media address stops working: its `oe` parameter, the expiry as hex Unix
 * seconds (Meta's CDN; threads-api.md section 10, media URLs expire). Null when it carries none.
 */
export function mediaExpiryOf(url: string | null): Date | null {
  if (!url) return null;
  let oe: string | null;
  try {
    oe = new URL(url).searchParams.get('oe');
  } catch {
    return null;
  }
  if (!oe || !/^[0-9A-Fa-f]{1,12}$/.test(oe)) return null;
  return new Date(Number.parseInt(oe, 16) * 1000);
}

/** The picture of a post as a thread stores it: only web URLs reach an <img>. */
export function pictureOf(post: ThreadsPost): { imageUrl: string | null; imageExpiresAt: Date | null } {
  const imageUrl = /^https?:\/\//.test(post.mediaUrl ?? '') ? post.mediaUrl : null;
  return { imageUrl, imageExpiresAt: mediaExpiryOf(imageUrl) };
}

/**
 * A post from the API as a thread row, or null when it has no usable shortcode (one Threads did not
 * give and the permalink does not carry). The permalink is stored in its canonical form.
 */
export function postToThread(
  post: ThreadsPost,
  source: NewThread['source'],
  extra: { query?: string; ownerUserId?: string; insights?: PostInsights } = {},
): NewThread | null {
  const link = post.permalink ? parseThreadUrl(post.permalink) : null;
  const shortcode = post.shortcode ?? (link?.ok ? link.link.shortcode : null);
  if (!shortcode || !/^[A-Za-z0-9_-]{5,40}$/.test(shortcode)) return null;
  const username = post.username.toLowerCase();
  const postedAt = post.timestamp ? new Date(post.timestamp) : null;
  return {
    shortcode,
    mediaId: post.id,
    source,
    query: extra.query ?? null,
    username,
    text: post.text,
    // An image, a video's thumbnail or a carousel's first picture (the gateway picks it), with the
    // moment its signed address expires.
    ...pictureOf(post),
    topicTag: post.topicTag,
    permalink: link?.ok ? link.link.url : `https://www.threads.com/@${username}/post/${shortcode}`,
    likes: extra.insights?.likes ?? null,
    replies: extra.insights?.replies ?? null,
    postedAt: postedAt && !Number.isNaN(postedAt.getTime()) ? postedAt : null,
    ownerUserId: extra.ownerUserId ?? null,
  };
}

/** The token owner's own posts, page by page (cursor paging), at most `maxPages` pages. */
export async function* ownPostPages(
  gateway: ThreadsGateway,
  token: string,
  maxPages: number,
): AsyncGenerator<ThreadsPost[]> {
  let after: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const result = await gateway.ownThreads(token, after);
    yield result.posts;
    after = result.next;
    if (!after) return;
  }
}

/** The permission every insights call needs (threads-api.md section 4): Meta refuses it otherwise. */
export const INSIGHTS_SCOPE = 'threads_manage_insights';

/** What became of one post's insights: read, asked and failed, or never asked (decision 068). */
export type InsightsOutcome =
  { kind: 'read'; insights: PostInsights } | { kind: 'failed'; error: Error } | { kind: 'skipped' };

/**
 * The insights of one of the token owner's own posts, asked only when the token was granted
 * threads_manage_insights: a call Meta is sure to refuse is not made at all (decision 068).
 */
export async function ownInsights(
  gateway: ThreadsGateway,
  grant: Grant,
  mediaId: string,
): Promise<InsightsOutcome> {
  if (!grant.scopes.includes(INSIGHTS_SCOPE)) return { kind: 'skipped' };
  try {
    return { kind: 'read', insights: await gateway.insights(grant.token, mediaId) };
  } catch (error) {
    return { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * One of the token owner's own posts as a thread row, with its likes and replies when they could be
 * read (insights exist only for a user's own posts, threads-api.md section 4; a post without them
 * still counts), and what became of the insights call, for the caller to count or report.
 */
export async function ownPostToThread(
  gateway: ThreadsGateway,
  grant: Grant,
  post: ThreadsPost,
  source: NewThread['source'],
  ownerUserId: string,
): Promise<{ row: NewThread | null; insights: InsightsOutcome }> {
  const insights = await ownInsights(gateway, grant, post.id);
  const extra = insights.kind === 'read' ? { insights: insights.insights } : {};
  return { row: postToThread(post, source, { ownerUserId, ...extra }), insights };
}
