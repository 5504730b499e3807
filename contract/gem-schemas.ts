import { z } from 'zod';
import { ThreadCardListSchema } from './thread-card.ts';

/** The collections of a published profile (contract/gems.ts `ProfileCollections`), as the build reads them. */
export const ProfileCollectionsSchema = z.object({
  gems: z.array(z.string()),
  own_threads: z.array(z.string()),
  gem_cards: ThreadCardListSchema,
  thread_cards: ThreadCardListSchema,
  gem_count: z.number().int().nonnegative(),
  thread_count: z.number().int().nonnegative(),
});
