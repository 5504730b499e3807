import type { Database } from '../../db/client.ts';
import { createThreadsRepository, type ThreadRow } from '../../repositories/threads.ts';
import { authorNames, optedOutTest } from './opted-out-filter.ts';

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
  const optedOut = await optedOutTest(db, rows);
  const removed = await createThreadsRepository(db).removedCounts(authorNames(rows));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        author_opted_out: optedOut(row),
        author_removed_count: removed.get(row.username?.toLowerCase() ?? '') ?? 0,
      },
    ]),
  );
}
