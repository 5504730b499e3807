import { ThreadsApiError, type PostInsights, type ThreadsPost } from './gateway.ts';

/** The media fields every post request asks for. */
export const POST_FIELDS = 'id,username,text,media_type,media_url,permalink,shortcode,timestamp,topic_tag';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

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
    mediaUrl: text(value.media_url),
    permalink: text(value.permalink),
    shortcode: text(value.shortcode),
    timestamp: text(value.timestamp),
    topicTag: text(value.topic_tag),
  };
}

/** The `data` list of a media list answer. */
export function postList(body: unknown): ThreadsPost[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data))
    throw new ThreadsApiError('Threads sent an unexpected list answer.', 'unavailable', 200);
  return data.map(toThreadsPost);
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
