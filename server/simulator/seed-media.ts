import type { SeedPost } from './seed-posts.ts';
import type { SimulatedThreadsStore } from './store.ts';

const HOUR = 3_600_000;

/** Whether a seeded post still exists: some are deleted at the source some hours after start. */
export function isAlive(store: SimulatedThreadsStore, post: SeedPost): boolean {
  return (
    post.disappearsAfterHours === null || store.now() < store.startedAt + post.disappearsAfterHours * HOUR
  );
}

/** A seeded post as Graph's media object (threads-api.md section 2). */
export function toMedia(post: SeedPost, mediaOrigin: string) {
  return {
    id: post.id,
    media_product_type: 'THREADS',
    media_type: post.mediaType,
    ...(post.imageIndex === null
      ? {}
      : {
          media_url: `${mediaOrigin}/sample/images/design-${String(post.imageIndex).padStart(2, '0')}.webp`,
        }),
    permalink: `https://www.threads.com/@${post.username}/post/${post.shortcode}`,
    shortcode: post.shortcode,
    username: post.username,
    text: post.text,
    timestamp: post.timestamp.replace(/\.\d{3}Z$/, '+0000'),
    ...(post.topicTag ? { topic_tag: post.topicTag } : {}),
  };
}
