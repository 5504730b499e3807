import { parseThreadUrl } from '../../contract/thread-url.ts';
import type { NewThread } from '../repositories/threads.ts';
import type { PostInsights, ThreadsPost } from '../threads/gateway.ts';

const IMAGE_TYPES = new Set(['IMAGE', 'CAROUSEL_ALBUM']);

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
    // Only web URLs reach an <img>: the simulated provider serves its images over http locally.
    imageUrl:
      IMAGE_TYPES.has(post.mediaType) && /^https?:\/\//.test(post.mediaUrl ?? '') ? post.mediaUrl : null,
    topicTag: post.topicTag,
    permalink: link?.ok ? link.link.url : `https://www.threads.com/@${username}/post/${shortcode}`,
    likes: extra.insights?.likes ?? null,
    replies: extra.insights?.replies ?? null,
    postedAt: postedAt && !Number.isNaN(postedAt.getTime()) ? postedAt : null,
    ownerUserId: extra.ownerUserId ?? null,
  };
}
