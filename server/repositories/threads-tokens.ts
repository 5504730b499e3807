import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { profiles, threadsTokens, users } from '../db/schema.ts';
import { holdsRole } from './role-bindings.ts';
import type { User } from './users.ts';

export type StoredToken = typeof threadsTokens.$inferSelect;

/** A user who can act on Threads, with their token still sealed and the scopes it was granted. */
export interface SealedHolder {
  user: User;
  ciphertext: string;
  scopes: string[];
}

/** Users not marked "reconnect needed" who match `where` and have a token, longest-standing first. */
async function sealedHolders(tx: Database, where: SQL): Promise<SealedHolder[]> {
  return tx
    .select({ user: users, ciphertext: threadsTokens.ciphertext, scopes: threadsTokens.scopes })
    .from(users)
    .innerJoin(threadsTokens, eq(threadsTokens.userId, users.id))
    .where(and(eq(users.reconnectNeeded, false), where))
    .orderBy(users.createdAt);
}

/** Who may curate: the person bound to `curatorUsername` when set, otherwise admins. */
function curationRole(curatorUsername: string | null, adminUsernames: readonly string[]): SQL {
  return curatorUsername
    ? holdsRole('curator', [curatorUsername])
    : sql`(${users.isAdmin} or ${holdsRole('admin', adminUsernames)})`;
}

/** Users' Threads tokens, as ciphertext only (sealed and opened by services/tokens/token-store.ts). */
export function createThreadsTokensRepository(db: Database) {
  return {
    /** Stores a user's token and the scopes it was granted, replacing any earlier one. */
    async save(
      userId: string,
      token: { ciphertext: string; scopes: readonly string[]; issuedAt: Date; expiresAt: Date },
      tx: Database = db,
    ): Promise<void> {
      const values = { ...token, scopes: [...token.scopes] };
      await tx
        .insert(threadsTokens)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: threadsTokens.userId, set: values });
    },

    /**
     * Saves a renewed token only if the stored one is still `previous` (compare-and-set): of two
     * refreshes that raced, the later save does not overwrite the earlier one. False if it changed.
     */
    async replaceIfUnchanged(
      userId: string,
      previous: string,
      next: { ciphertext: string; issuedAt: Date; expiresAt: Date },
      tx: Database = db,
    ): Promise<boolean> {
      const rows = await tx
        .update(threadsTokens)
        .set(next)
        .where(and(eq(threadsTokens.userId, userId), eq(threadsTokens.ciphertext, previous)))
        .returning({ userId: threadsTokens.userId });
      return rows.length > 0;
    },

    async delete(userId: string, tx: Database = db): Promise<void> {
      await tx.delete(threadsTokens).where(eq(threadsTokens.userId, userId));
    },

    /** Users whose token was issued before `cutoff` (due for a refresh). */
    async listIssuedBefore(cutoff: Date, tx: Database = db): Promise<string[]> {
      const rows = await tx
        .select({ userId: threadsTokens.userId })
        .from(threadsTokens)
        .where(lt(threadsTokens.issuedAt, cutoff));
      return rows.map((row) => row.userId);
    },

    async find(userId: string, tx: Database = db): Promise<StoredToken | null> {
      const [row] = await tx.select().from(threadsTokens).where(eq(threadsTokens.userId, userId));
      return row ?? null;
    },

    /**
     * Who may search for the curation, in order: the person bound to `curatorUsername` when it is set,
     * otherwise admins (granted by the CLI, or bound to one of `adminUsernames`).
     */
    async holdersForCuration(
      curatorUsername: string | null,
      adminUsernames: readonly string[],
      tx: Database = db,
    ): Promise<SealedHolder[]> {
      return sealedHolders(tx, curationRole(curatorUsername, adminUsernames));
    },

    /**
     * Everyone who may curate and has a token, "reconnect needed" or not, with the scopes granted
     * (longest-standing first): the dashboard's curation account panel.
     */
    async curationCandidates(
      curatorUsername: string | null,
      adminUsernames: readonly string[],
      tx: Database = db,
    ): Promise<{ user: User; scopes: string[] }[]> {
      return tx
        .select({ user: users, scopes: threadsTokens.scopes })
        .from(users)
        .innerJoin(threadsTokens, eq(threadsTokens.userId, users.id))
        .where(curationRole(curatorUsername, adminUsernames))
        .orderBy(users.createdAt);
    },

    /** Members with an approved profile and a token. */
    async approvedMemberHolders(tx: Database = db): Promise<SealedHolder[]> {
      return sealedHolders(
        tx,
        sql`exists (select 1 from ${profiles} where ${profiles.userId} = ${users.id} and ${profiles.status} = 'approved')`,
      );
    },
  };
}
export type ThreadsTokensRepository = ReturnType<typeof createThreadsTokensRepository>;
