import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { profiles, threadsTokens, users } from '../../db/schema.ts';
import { holdsRole } from '../../repositories/role-bindings.ts';
import type { User } from '../../repositories/users.ts';
import { decryptToken } from '../../threads/token-cipher.ts';

export interface TokenHolder {
  user: User;
  token: string;
}

interface Deps {
  db: Database;
  tokenKey: Buffer;
  adminUsernames: readonly string[];
  settings: { curatorUsername: string | null };
}

async function withTokens(
  db: Database,
  where: ReturnType<typeof sql> | undefined,
  key: Buffer,
): Promise<TokenHolder[]> {
  const rows = await db
    .select({ user: users, ciphertext: threadsTokens.ciphertext })
    .from(users)
    .innerJoin(threadsTokens, eq(threadsTokens.userId, users.id))
    .where(and(eq(users.reconnectNeeded, false), where))
    .orderBy(users.createdAt);
  return rows.map(({ user, ciphertext }) => ({ user, token: decryptToken(ciphertext, user.id, key) }));
}

/**
 * Whose token searches: the person bound to CURATOR_THREADS_USERNAME when set (and they have a working
 * token), otherwise the longest-standing admin with one (granted by the CLI, or bound to a username in
 * ADMIN_THREADS_USERNAMES). Roles follow the Threads user id bound at first sign-in, never a username
 * someone else may hold now. Null when nobody can.
 */
export async function findCurator(deps: Deps): Promise<TokenHolder | null> {
  const curator = deps.settings.curatorUsername;
  const where = curator
    ? holdsRole('curator', [curator])
    : sql`(${users.isAdmin} or ${holdsRole('admin', deps.adminUsernames)})`;
  const [first] = await withTokens(deps.db, where, deps.tokenKey);
  return first ?? null;
}

/** Approved members with a working token: their own posts are collected. */
export async function membersWithTokens(deps: Deps): Promise<TokenHolder[]> {
  const approved = sql`exists (select 1 from ${profiles} where ${profiles.userId} = ${users.id} and ${profiles.status} = 'approved')`;
  return withTokens(deps.db, approved, deps.tokenKey);
}
