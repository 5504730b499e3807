import { PROFILE_CARDS_MAX, type ProfileCollections } from '../../../contract/gems.ts';
import type { PostDisplay } from '../../../contract/threads-embed.ts';
import type { Database } from '../../db/client.ts';
import { createGemsRepository } from '../../repositories/gems.ts';
import { createMemberThreadsRepository } from '../../repositories/member-threads.ts';
import { toProfileCollections } from '../../views/profile-collections-view.ts';

/** Members per query: keeps the IN lists far below PostgreSQL's parameter limit. */
const CHUNK = 500;

/**
 * The gems and approved own threads of each member, as their profiles carry them (contract/gems.ts):
 * four queries per 500 members, however many members and gems there are.
 */
export async function collectionsFor(
  db: Database,
  userIds: readonly string[],
  display: PostDisplay,
  limit = PROFILE_CARDS_MAX,
): Promise<Map<string, ProfileCollections>> {
  const gems = createGemsRepository(db);
  const own = createMemberThreadsRepository(db);
  const result = new Map<string, ProfileCollections>();
  for (let start = 0; start < userIds.length; start += CHUNK) {
    const chunk = userIds.slice(start, start + CHUNK);
    const gemRows = await gems.newestPerMember(chunk, limit);
    const gemCounts = await gems.countPerMember(chunk);
    const ownRows = await own.newestPerMember(chunk, limit);
    const ownCounts = await own.countPerMember(chunk);
    for (const userId of chunk) {
      const collections = toProfileCollections({
        gems: gemRows.get(userId) ?? [],
        own: ownRows.get(userId) ?? [],
        gemCount: gemCounts.get(userId) ?? 0,
        ownCount: ownCounts.get(userId) ?? 0,
        display,
      });
      result.set(userId, collections);
    }
  }
  return result;
}

/** One member's collections (see `collectionsFor`). */
export async function collectionsOf(
  db: Database,
  userId: string,
  display: PostDisplay,
): Promise<ProfileCollections> {
  const collections = (await collectionsFor(db, [userId], display)).get(userId);
  if (!collections) throw new Error('collections vanished');
  return collections;
}
