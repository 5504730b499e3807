import { and, count, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import { PROFILE_CARDS_MAX, type ProfileCollections } from '../../contract/gems.ts';
import type { Database } from '../db/client.ts';
import { threads } from '../db/schema.ts';
import { toThreadCard } from '../views/thread-views.ts';
import { createGemsRepository } from './gems.ts';
import type { ThreadRow } from './threads.ts';

/** Members per query: keeps the IN lists far below PostgreSQL's parameter limit. */
const CHUNK = 500;

const approvedOwn = (userIds: readonly string[]) =>
  and(inArray(threads.ownerUserId, [...userIds]), eq(threads.status, 'approved'));

/** Each member's approved own threads, newest post first, at most `limit` per member. */
async function newestOwnPerMember(
  tx: Database,
  userIds: readonly string[],
  limit: number,
): Promise<Map<string, ThreadRow[]>> {
  const ranked = tx
    .select({
      ...getTableColumns(threads),
      rank: sql<number>`row_number() over (partition by ${threads.ownerUserId} order by coalesce(${threads.postedAt}, ${threads.createdAt}) desc, ${threads.id} desc)`.as(
        'rank',
      ),
    })
    .from(threads)
    .where(approvedOwn(userIds))
    .as('ranked');
  const rows = await tx
    .select()
    .from(ranked)
    .where(lte(ranked.rank, limit))
    .orderBy(ranked.ownerUserId, ranked.rank);
  const byMember = new Map<string, ThreadRow[]>();
  for (const thread of rows) {
    if (!thread.ownerUserId) continue;
    byMember.set(thread.ownerUserId, [...(byMember.get(thread.ownerUserId) ?? []), thread]);
  }
  return byMember;
}

async function ownCountPerMember(tx: Database, userIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx
    .select({ userId: threads.ownerUserId, n: count() })
    .from(threads)
    .where(approvedOwn(userIds))
    .groupBy(threads.ownerUserId);
  return new Map(rows.flatMap((row) => (row.userId ? [[row.userId, row.n] as const] : [])));
}

/**
 * The gems and approved own threads of each member, as their profiles carry them (contract/gems.ts):
 * four queries per 500 members, however many members and gems there are.
 */
export async function collectionsFor(
  db: Database,
  userIds: readonly string[],
  limit = PROFILE_CARDS_MAX,
): Promise<Map<string, ProfileCollections>> {
  const gems = createGemsRepository(db);
  const result = new Map<string, ProfileCollections>();
  for (let start = 0; start < userIds.length; start += CHUNK) {
    const chunk = userIds.slice(start, start + CHUNK);
    const gemRows = await gems.newestPerMember(chunk, limit);
    const gemCounts = await gems.countPerMember(chunk);
    const ownRows = await newestOwnPerMember(db, chunk, limit);
    const ownCounts = await ownCountPerMember(db, chunk);
    for (const userId of chunk) {
      const gemCards = (gemRows.get(userId) ?? []).map(toThreadCard);
      const threadCards = (ownRows.get(userId) ?? []).map(toThreadCard);
      result.set(userId, {
        gems: gemCards.map((card) => card.id),
        own_threads: threadCards.map((card) => card.id),
        gem_cards: gemCards,
        thread_cards: threadCards,
        gem_count: gemCounts.get(userId) ?? 0,
        thread_count: ownCounts.get(userId) ?? 0,
      });
    }
  }
  return result;
}

/** One member's collections (see `collectionsFor`). */
export async function collectionsOf(db: Database, userId: string): Promise<ProfileCollections> {
  const collections = (await collectionsFor(db, [userId])).get(userId);
  if (!collections) throw new Error('collections vanished');
  return collections;
}
