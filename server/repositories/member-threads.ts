import { and, count, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { threads } from '../db/schema.ts';
import type { ThreadRow } from './threads.ts';

const approvedOwn = (userIds: readonly string[]) =>
  and(inArray(threads.ownerUserId, [...userIds]), eq(threads.status, 'approved'));

/** Members' own approved threads (the ones they submitted), as their profiles list them. */
export function createMemberThreadsRepository(db: Database) {
  return {
    /** Each member's approved own threads, newest post first, at most `limit` per member. */
    async newestPerMember(
      userIds: readonly string[],
      limit: number,
      tx: Database = db,
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
    },

    /** How many approved own threads each member has (members without any are absent). */
    async countPerMember(userIds: readonly string[], tx: Database = db): Promise<Map<string, number>> {
      const rows = await tx
        .select({ userId: threads.ownerUserId, n: count() })
        .from(threads)
        .where(approvedOwn(userIds))
        .groupBy(threads.ownerUserId);
      return new Map(rows.flatMap((row) => (row.userId ? [[row.userId, row.n] as const] : [])));
    },
  };
}
export type MemberThreadsRepository = ReturnType<typeof createMemberThreadsRepository>;
