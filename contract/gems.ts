import { ThreadCardListSchema } from './thread-card.ts';
import { z } from './zod.ts';

const count = () => z.int().check(z.nonnegative());

/** Most gems one member may keep: bounds the ids the site loads on every page. */
export const GEMS_MAX = 1000;
/** Most cards a profile carries per list (newest first); its counts stay exact. */
export const PROFILE_CARDS_MAX = 100;

/**
 * A member's gems and approved own threads, as their profile and public profile carry them: the ids
 * of the listed cards (spec: ids), the cards themselves (newest first, at most PROFILE_CARDS_MAX each)
 * and the exact counts. Threads that are not approved (hidden at the source) are in none of them.
 */
export const ProfileCollectionsSchema = z.object({
  gems: z.array(z.string()),
  own_threads: z.array(z.string()),
  gem_cards: ThreadCardListSchema,
  thread_cards: ThreadCardListSchema,
  gem_count: count(),
  thread_count: count(),
});
export type ProfileCollections = z.infer<typeof ProfileCollectionsSchema>;

/**
 * `GET /api/user/gems/ids` (any signed-in user): whether they may save gems (approved members and
 * admins), and every approved thread they saved (marks the saved cards). Not a 403 for the others, so
 * every page a pending member opens does not log a failed request.
 */
export const GemIdsSchema = z.object({ can_save: z.boolean(), ids: z.array(z.string()) });
export type GemIds = z.infer<typeof GemIdsSchema>;

/** `GET /api/user/gems`: the member's gems as cards, newest saved first, and how many there are. */
export const GemListSchema = z.object({ cards: ThreadCardListSchema, count: count() });
export type GemList = z.infer<typeof GemListSchema>;

/** `PUT` and `DELETE /api/user/gems/{thread_id}`: whether it is saved now, and the member's gem count. */
export const GemStateSchema = z.object({ thread_id: z.string(), saved: z.boolean(), count: count() });
export type GemState = z.infer<typeof GemStateSchema>;

/** `/api/user/gems/{thread_id}`: the thread in the path (any other word answers 404, not 400). */
export const GemParamsSchema = z.object({ thread_id: z.string() });

export const GEM_TEXTS = {
  save: 'Save as gem',
  saved: 'Saved as gem',
  saveFailed: 'The thread could not be saved as a gem. Please try again.',
  removeFailed: 'The gem could not be removed. Please try again.',
  threadNotFound: 'Thread not found.',
  notApproved: 'Only approved threads can be saved as gems.',
  tooMany: `You can keep at most ${GEMS_MAX} gems. Remove one to save another.`,
} as const;

/** "Showing the newest 100 of 240": said under a list cut to the profile's bound. */
export function newestShown(shown: number, total: number): string {
  return `Showing the newest ${shown} of ${total}.`;
}
