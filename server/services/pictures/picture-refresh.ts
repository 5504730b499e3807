import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createThreadsRepository, type ThreadRow } from '../../repositories/threads.ts';
import type { ThreadsGateway } from '../../threads/gateway.ts';
import { pictureOf } from '../publishing/post-to-thread.ts';
import { createTokenStore } from '../tokens/token-store.ts';

/** A picture expiring within this margin is refreshed before it is handed out (decision 025). */
export const REFRESH_MARGIN_MS = 30 * 60_000;
/** The refresh job renews pictures expiring within this window, so visitors rarely wait on Threads. */
export const JOB_WINDOW_MS = 2 * 3_600_000;
/** Pictures one job run refreshes at most, in batches: a bounded number of Threads calls an hour. */
export const JOB_LIMIT = 200;
const JOB_BATCH = 25;

export interface PictureDeps {
  db: Database;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
  settings: Config['curation'];
  adminUsernames: readonly string[];
  now?: () => Date;
}

/** A picture address that works now: the stored one, or a refreshed one; null when there is none. */
export type CurrentPicture = { url: string; expiresAt: Date | null } | null;

/**
 * Reads the post again with the curator's token and stores its new picture address. Null when
 * Threads will not give one: no curator, the post is gone or unreadable with this access level
 * (code 100, subcode 33), or it has no picture any more. The stored address is then left alone.
 */
async function refreshOne(deps: PictureDeps, token: string, thread: ThreadRow): Promise<CurrentPicture> {
  if (!thread.mediaId) return null;
  const post = await deps.gateway.post(token, thread.mediaId);
  const picture = post ? pictureOf(post) : null;
  if (!picture?.imageUrl) return null;
  await createThreadsRepository(deps.db).setPicture(thread.id, {
    imageUrl: picture.imageUrl,
    imageExpiresAt: picture.imageExpiresAt,
  });
  return { url: picture.imageUrl, expiresAt: picture.imageExpiresAt };
}

const expiresWithin = (expiresAt: Date | null, now: Date, margin: number) =>
  expiresAt !== null && expiresAt.getTime() - now.getTime() <= margin;

/**
 * The approved threads' pictures on demand (`GET /api/media/{id}`): the stored address while it
 * works for a while yet, otherwise a refreshed one. Concurrent requests for one thread share one
 * refresh (single-flight), so a burst of visitors costs Threads one call.
 */
export function createPictureService(deps: PictureDeps) {
  const threads = createThreadsRepository(deps.db);
  const tokens = createTokenStore(deps);
  const now = deps.now ?? (() => new Date());
  const inFlight = new Map<string, Promise<CurrentPicture>>();

  async function refresh(thread: ThreadRow): Promise<CurrentPicture> {
    const curator = await tokens.curator(deps.settings, deps.adminUsernames);
    if (!curator) return null;
    return refreshOne(deps, curator.token, thread);
  }

  return {
    /** The current address of an approved thread's picture, or null (no such picture, or lost). */
    async current(threadId: string): Promise<CurrentPicture> {
      const thread = await threads.find(threadId);
      if (!thread || thread.status !== 'approved' || !thread.imageUrl) return null;
      if (!expiresWithin(thread.imageExpiresAt, now(), REFRESH_MARGIN_MS))
        return { url: thread.imageUrl, expiresAt: thread.imageExpiresAt };
      // While the stored address still works, a failed or empty refresh falls back to it.
      const stored = thread.imageExpiresAt && thread.imageExpiresAt > now() ? thread : null;
      const fallback = stored ? { url: thread.imageUrl, expiresAt: thread.imageExpiresAt } : null;
      let pending = inFlight.get(thread.id);
      if (!pending) {
        pending = refresh(thread)
          .then((fresh) => fresh ?? fallback)
          .catch((error: unknown) => {
            if (fallback) return fallback;
            throw error;
          })
          .finally(() => inFlight.delete(thread.id));
        inFlight.set(thread.id, pending);
      }
      return pending;
    },
  };
}
export type PictureService = ReturnType<typeof createPictureService>;

/**
 * The scheduled refresh (decision 025): approved threads' pictures that expire within the next
 * JOB_WINDOW_MS, soonest first, at most JOB_LIMIT a run in batches. A picture Threads no longer
 * gives is counted as lost and tried again next run (its route answers 404 meanwhile).
 */
export async function refreshExpiringPictures(
  deps: PictureDeps,
): Promise<{ refreshed: number; lost: number; failed: number }> {
  const now = deps.now ?? (() => new Date());
  const threads = createThreadsRepository(deps.db);
  const due = await threads.listPicturesExpiringBefore(new Date(now().getTime() + JOB_WINDOW_MS), JOB_LIMIT);
  const result = { refreshed: 0, lost: 0, failed: 0 };
  if (due.length === 0) return result;
  const curator = await createTokenStore(deps).curator(deps.settings, deps.adminUsernames);
  if (!curator) return { ...result, failed: due.length };
  for (let start = 0; start < due.length; start += JOB_BATCH) {
    const batch = due.slice(start, start + JOB_BATCH);
    const outcomes = await Promise.allSettled(batch.map((thread) => refreshOne(deps, curator.token, thread)));
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') result.failed += 1;
      else if (outcome.value) result.refreshed += 1;
      else result.lost += 1;
    }
  }
  return result;
}
