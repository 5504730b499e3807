import { ReadCache } from '../../http/read-cache.ts';

/**
 * The answers of `GET /api/user/profile/{username}` by name without regard to case: the JSON body as
 * sent (serialized once per answer), or null when no approved profile has that name. Every profile
 * write clears it.
 */
export function createPublicProfileCache(now?: () => number): ReadCache<string | null> {
  return new ReadCache<string | null>({
    maxEntries: 5_000,
    normalize: (name) => name.toLowerCase(),
    ...(now ? { now } : {}),
  });
}
