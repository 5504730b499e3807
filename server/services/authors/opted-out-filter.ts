import type { Database } from '../../db/client.ts';
import { createAuthorOptOutsRepository } from '../../repositories/author-opt-outs.ts';

/** What tells a post's author: the username it carries, and the account it belongs to, if any. */
export interface Authored {
  username?: string | null | undefined;
  ownerUserId?: string | null | undefined;
}

/** The distinct lower-case usernames of `rows`: what opt-outs and removal counts are keyed on. */
export function authorNames(rows: readonly Authored[]): string[] {
  return [...new Set(rows.flatMap((row) => (row.username ? [row.username.toLowerCase()] : [])))];
}

/**
 * A test for posts whose author asked never to be curated (decision 028), told by the post's
 * username (lower case, what search results carry) or, for their own posts, its owner. One query
 * answers for all of `rows`.
 */
export async function optedOutTest(
  db: Database,
  rows: readonly Authored[],
): Promise<(row: Authored) => boolean> {
  const owners = [...new Set(rows.flatMap((row) => (row.ownerUserId ? [row.ownerUserId] : [])))];
  const out = await createAuthorOptOutsRepository(db).among(authorNames(rows), owners);
  return (row) =>
    Boolean(row.username && out.usernames.has(row.username.toLowerCase())) ||
    Boolean(row.ownerUserId && out.userIds.has(row.ownerUserId));
}

/** Whether a post by this username (or owned by this account) may not be submitted or curated. */
export async function isOptedOut(
  db: Database,
  username: string | null | undefined,
  ownerUserId: string | null | undefined,
): Promise<boolean> {
  const post = { username, ownerUserId };
  return (await optedOutTest(db, [post]))(post);
}
