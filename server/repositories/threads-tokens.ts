import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { profiles, threadsTokens, users } from '../db/schema.ts';
import { holdsRole } from './role-bindings.ts';
import type { User } from './users.ts';

export type StoredToken = typeof threadsTokens.$inferSelect;

/** A user who can act on Threads, with their token still sealed. */
export interface SealedHolder {
  user: User;
  ciphertext: string;
}

/** Users not marked "reconnect needed" who match `where` and have a token, longest-standing first. */
async function sealedHolders(tx: Database, where: SQL): Promise<SealedHolder[]> {
  return tx
    .select({ user: users, ciphertext: threadsTokens.ciphertext })
    .from(users)
    .innerJoin(threadsTokens, eq(threadsTokens.userId, users.id))
    .where(and(eq(users.reconnectNeeded, false), where))
    .orderBy(users.createdAt);
}

/** Users' Threads tokens, as ciphertext only (sealed and opened by services/tokens/token-store.ts). */
export function createThreadsTokensRepository(db: Database) {
  return {
    async save(
      userId: string,
      ciphertext: string,
      issuedAt: Date,
      expiresAt: Date,
      tx: Database = db,
    ): Promise<void> {
      await tx
        .insert(threadsTokens)
        .values({ userId, ciphertext, issuedAt, expiresAt })
        .onConflictDoUpdate({ target: threadsTokens.userId, set: { ciphertext, issuedAt, expiresAt } });
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
      const where = curatorUsername
        ? holdsRole('curator', [curatorUsername])
        : sql`(${users.isAdmin} or ${holdsRole('admin', adminUsernames)})`;
      return sealedHolders(tx, where);
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
