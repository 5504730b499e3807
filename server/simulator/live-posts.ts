import type { PublishedPost } from './publishing-store.ts';
import { isAlive } from './seed-media.ts';
import { ownPostsFor, SEED_POSTS, type SeedPost } from './seed-posts.ts';
import type { SimulatedThreadsStore } from './store.ts';

/** A post the simulated Threads still shows: a seeded one, an account's own, or one published here. */
export type LivePost = SeedPost | PublishedPost;

/**
 * The live public post a permalink names: a seeded post not yet deleted, a published one or an
 * account's own. As on Threads, the shortcode names the post: a handle in the link that is not its
 * author's changes nothing (issue 34).
 */
export function findLivePost(
  store: SimulatedThreadsStore,
  { username, shortcode }: { username: string | null; shortcode: string },
): LivePost | null {
  const matches = (post: { shortcode: string }) => post.shortcode === shortcode;
  const seeded: SeedPost | undefined = SEED_POSTS.find(matches);
  if (seeded) return isAlive(store, seeded) ? seeded : null;
  const published = store.publishedByShortcode(shortcode);
  if (published) return published;
  // An account's own posts are derived from its name: those of every account seen, and the link's.
  const owners = new Set(store.accounts());
  if (username !== null) owners.add(username);
  for (const owner of owners) {
    const own = ownPostsFor(owner).find(matches);
    if (own) return own;
  }
  return null;
}
