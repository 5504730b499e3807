import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { threadsTokens } from '../db/schema.ts';

export type StoredToken = typeof threadsTokens.$inferSelect;

/** Users' Threads tokens, as ciphertext only (see threads/token-cipher.ts). */
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
  };
}
export type ThreadsTokensRepository = ReturnType<typeof createThreadsTokensRepository>;
