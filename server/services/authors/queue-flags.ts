import type { Database } from '../../db/client.ts';
import { createAuthorOptOutsRepository } from '../../repositories/author-opt-outs.ts';
import { createThreadsRepository, type ThreadRow } from '../../repositories/threads.ts';

/** What the admin reads about a queued post's author: opted out, and how many posts they removed. */
export interface AuthorFlags {
  author_opted_out: boolean;
  author_removed_count: number;
}

/** The author flags of each queued thread, by thread id (two queries for the whole page). */
export async function authorFlagsOf(
  db: Database,
  rows: Pick<ThreadRow, 'id' | 'username' | 'ownerUserId'>[],
): Promise<Map<string, AuthorFlags>> {
  const names = [...new Set(rows.flatMap((row) => (row.username ? [row.username.toLowerCase()] : [])))];
  const owners = [...new Set(rows.flatMap((row) => (row.ownerUserId ? [row.ownerUserId] : [])))];
  const out = await createAuthorOptOutsRepository(db).among(names, owners);
  const removed = await createThreadsRepository(db).removedCounts(names);
  return new Map(
    rows.map((row) => {
      const name = row.username?.toLowerCase() ?? '';
      return [
        row.id,
        {
          author_opted_out:
            out.usernames.has(name) || (row.ownerUserId !== null && out.userIds.has(row.ownerUserId)),
          author_removed_count: removed.get(name) ?? 0,
        },
      ];
    }),
  );
}
