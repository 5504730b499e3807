import type { Database } from '../../db/client.ts';
import { createAuthorOptOutsRepository } from '../../repositories/author-opt-outs.ts';
import type { NewThread } from '../../repositories/threads.ts';

/**
 * The found posts curation may add: none by an author who asked never to be curated, told by the
 * post's username (lower case, what search results carry) or, for their own posts, its owner.
 */
export async function withoutOptedOut(db: Database, rows: NewThread[]): Promise<NewThread[]> {
  if (rows.length === 0) return rows;
  const names = [...new Set(rows.flatMap((row) => (row.username ? [row.username.toLowerCase()] : [])))];
  const owners = [...new Set(rows.flatMap((row) => (row.ownerUserId ? [row.ownerUserId] : [])))];
  const out = await createAuthorOptOutsRepository(db).among(names, owners);
  if (out.usernames.size === 0 && out.userIds.size === 0) return rows;
  return rows.filter(
    (row) =>
      !(row.username && out.usernames.has(row.username.toLowerCase())) &&
      !(row.ownerUserId && out.userIds.has(row.ownerUserId)),
  );
}

/** Whether a post by this username (or owned by this account) may not be submitted or curated. */
export async function isOptedOut(
  db: Database,
  username: string | null | undefined,
  ownerUserId: string | null | undefined,
): Promise<boolean> {
  const row: NewThread = { shortcode: '', source: 'manual_submission', permalink: '', username, ownerUserId };
  return (await withoutOptedOut(db, [row])).length === 0;
}
