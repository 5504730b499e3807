import { ThreadsApiError, type PostInsights, type ThreadsPost } from './gateway.ts';

/**
 * The media fields every post request asks for; a carousel's picture comes from its children
 * (threads-api.md section 2: field expansion of `children`).
 */
export const POST_FIELDS =
  'id,username,text,media_type,media_url,thumbnail_url,children{id,media_type,media_url,thumbnail_url},permalink,shortcode,timestamp,topic_tag';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The picture of a media object: an image's media_url, a video's thumbnail (threads-api.md section 10). */
function pictureOf(value: Record<string, unknown>): string | null {
  const type = text(value.media_type);
  if (type === 'VIDEO') return text(value.thumbnail_url);
  if (type === 'CAROUSEL_ALBUM') {
    const children = (value.children as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(children)) return null;
    for (const child of children) {
      const picture = child && typeof child === 'object' ? pictureOf(child as Record<string, unknown>) : null;
      if (picture) return picture;
    }
    return null;
  }
  if (type === 'IMAGE') return text(value.media_url);
  return null;
}

/** A Graph media object as a ThreadsPost; a post without an id or a username is refused. */
export function toThreadsPost(raw: unknown): ThreadsPost {
  const value = (raw ?? {}) as Record<string, unknown>;
  const id = text(value.id);
  const username = text(value.username);
  if (!id || !/^\d+$/.test(id) || !username)
    throw new ThreadsApiError('Threads sent a post without an id or a username.', 'unavailable', 200);
  return {
    id,
    username,
    text: text(value.text) ?? '',
    mediaType: text(value.media_type) ?? 'TEXT_POST',
    mediaUrl: pictureOf(value),
    permalink: text(value.permalink),
    shortcode: text(value.shortcode),
    timestamp: text(value.timestamp),
    topicTag: text(value.topic_tag),
  };
}

/**
 * The posts of a media list answer (`data`). A repost (REPOST_FACADE) is someone else's post, not a
 * post of its own, and a malformed item is one bad item: both are skipped and counted, never the
 * whole page.
 */
export function postList(body: unknown): { posts: ThreadsPost[]; skipped: number } {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data))
    throw new ThreadsApiError('Threads sent an unexpected list answer.', 'unavailable', 200);
  const posts: ThreadsPost[] = [];
  let skipped = 0;
  for (const item of data) {
    if ((item as { media_type?: unknown } | null)?.media_type === 'REPOST_FACADE') {
      skipped += 1;
      continue;
    }
    try {
      posts.push(toThreadsPost(item));
    } catch {
      skipped += 1;
    }
  }
  return { posts, skipped };
}

/** The `after` cursor when the answer says there is a next page. */
export function nextCursor(body: unknown): string | null {
  const paging = (body as { paging?: { next?: unknown; cursors?: { after?: unknown } } } | null)?.paging;
  return paging?.next && typeof paging.cursors?.after === 'string' ? paging.cursors.after : null;
}

/** Likes and replies out of an insights answer (`data[].name` / `values[0].value`). */
export function readInsights(body: unknown): PostInsights {
  const data = (body as { data?: unknown } | null)?.data;
  const metric = (name: string): number | null => {
    if (!Array.isArray(data)) return null;
    const entry = data.find((item) => (item as { name?: unknown })?.name === name) as
      { values?: { value?: unknown }[]; total_value?: { value?: unknown } } | undefined;
    const value = entry?.values?.[0]?.value ?? entry?.total_value?.value;
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
  };
  return { likes: metric('likes'), replies: metric('replies') };
}
