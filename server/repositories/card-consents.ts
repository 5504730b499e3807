import { eq, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { cardConsents, threads } from '../db/schema.ts';

/** Who the consent is: the Threads account, and the member whose own posts it covers. */
export interface ConsentingAuthor {
  threadsUserId: string;
  username: string;
  /** The member's id here: their own posts (owner_user_id) follow the consent too. */
  userId: string;
}

/**
 * Authors who chose 'Show my posts as cards' (decision 070). A consent change marks the author's
 * stored threads in the same statement set; a trigger marks threads stored later.
 */
export function createCardConsentsRepository(db: Database) {
  /** Sets shown_as_card on every stored thread of the author; returns how many approved ones changed. */
  async function markThreads(author: ConsentingAuthor, shown: boolean, tx: Database): Promise<number> {
    const rows = await tx
      .update(threads)
      .set({ shownAsCard: shown })
      .where(
        sql`(${or(
          sql`lower(${threads.username}) = ${author.username.toLowerCase()}`,
          eq(threads.ownerUserId, author.userId),
        )}) and ${threads.shownAsCard} <> ${shown}`,
      )
      .returning({ status: threads.status });
    return rows.filter((row) => row.status === 'approved').length;
  }

  return {
    async has(threadsUserId: string, tx: Database = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: cardConsents.threadsUserId })
        .from(cardConsents)
        .where(eq(cardConsents.threadsUserId, threadsUserId));
      return row !== undefined;
    },

    /**
     * Records the consent and marks the author's threads; returns how many approved threads changed,
     * or null when it was already given. Call inside a transaction: the two writes go together.
     */
    async give(author: ConsentingAuthor, tx: Database = db): Promise<number | null> {
      const added = await tx
        .insert(cardConsents)
        .values({ threadsUserId: author.threadsUserId, username: author.username.toLowerCase() })
        .onConflictDoNothing()
        .returning({ id: cardConsents.threadsUserId });
      if (added.length === 0) return null;
      return markThreads(author, true, tx);
    },

    /** Withdraws the consent and unmarks the threads; null when there was none. */
    async withdraw(author: ConsentingAuthor, tx: Database = db): Promise<number | null> {
      const removed = await tx
        .delete(cardConsents)
        .where(eq(cardConsents.threadsUserId, author.threadsUserId))
        .returning({ id: cardConsents.threadsUserId });
      if (removed.length === 0) return null;
      return markThreads(author, false, tx);
    },

    /** Keeps a consent's username the one the author has on Threads now (called at each sign-in). */
    async refreshUsername(threadsUserId: string, username: string, tx: Database = db): Promise<void> {
      await tx
        .update(cardConsents)
        .set({ username: username.toLowerCase() })
        .where(eq(cardConsents.threadsUserId, threadsUserId));
    },
  };
}
