import { mediaAddress, type MediaAddressing } from './media-files.ts';
import type { SeedPost } from './seed-posts.ts';
import type { SimulatedThreadsStore } from './store.ts';

const HOUR = 3_600_000;
const CAROUSEL_SIZE = 3;

/** Whether a seeded post still exists: some are deleted at the source some hours after start. */
export function isAlive(store: SimulatedThreadsStore, post: SeedPost): boolean {
  return (
    post.disappearsAfterHours === null || store.now() < store.startedAt + post.disappearsAfterHours * HOUR
  );
}

/** How a media object is rendered: the store (clock, signatures), where media live, and for which endpoint. */
export interface MediaContext {
  store: SimulatedThreadsStore;
  media: MediaAddressing;
  /**
   * keyword_search's sample result says `TEXT` for a text post where media objects say `TEXT_POST`
   * (threads-api.md section 3, note): search answers with the former.
   */
  textType?: 'TEXT' | 'TEXT_POST';
}

/** The media fields of a post's pictures: media_url, thumbnail_url or children (section 10). */
function pictureFields(post: SeedPost, { store, media }: MediaContext) {
  const index = post.imageIndex;
  if (index === null) return {};
  if (post.mediaType === 'VIDEO') return { thumbnail_url: mediaAddress(store, media, index) };
  if (post.mediaType === 'CAROUSEL_ALBUM') {
    const data = Array.from({ length: CAROUSEL_SIZE }, (_, k) => ({
      // Children are media objects of their own, with ids of their own.
      id: `1790${post.id.slice(4, -1)}${k}`,
      media_type: 'IMAGE',
      media_url: mediaAddress(store, media, ((index - 1 + k) % 12) + 1),
    }));
    return { children: { data } };
  }
  return { media_url: mediaAddress(store, media, index) };
}

/** A seeded post as Graph's media object (threads-api.md section 2). */
export function toMedia(post: SeedPost, context: MediaContext) {
  const timestamp = post.timestamp.replace(/\.\d{3}Z$/, '+0000');
  const permalink = `https://www.threads.com/@${post.username}/post/${post.shortcode}`;
  if (post.mediaType === 'REPOST_FACADE')
    // A repost is a facade over someone else's post: no text, no media of its own.
    return {
      id: post.id,
      media_product_type: 'THREADS',
      media_type: 'REPOST_FACADE',
      permalink,
      shortcode: post.shortcode,
      username: post.username,
      timestamp,
      reposted_post: { id: post.repostOf },
    };
  return {
    id: post.id,
    media_product_type: 'THREADS',
    media_type: post.mediaType === 'TEXT_POST' ? (context.textType ?? 'TEXT_POST') : post.mediaType,
    ...pictureFields(post, context),
    permalink,
    shortcode: post.shortcode,
    ...(post.usernameHidden ? {} : { username: post.username }),
    text: post.text,
    timestamp,
    ...(post.topicTag ? { topic_tag: post.topicTag } : {}),
  };
}
