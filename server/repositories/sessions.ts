import { and, eq, gt, lte, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import type { User } from './users.ts';

/** Deletes the sessions `where` picks; returns how many there were. */
async function deleteCounted(tx: Database, where: SQL): Promise<number> {
  const removed = await tx.delete(sessions).where(where).returning({ idHash: sessions.idHash });
  return removed.length;
}

/** Sessions by the keyed hash of their cookie value (the value itself is never stored). */
export function createSessionsRepository(db: Database) {
  return {
    async create(idHash: string, userId: string, expiresAt: Date, tx: Database = db): Promise<void> {
      await tx.insert(sessions).values({ idHash, userId, expiresAt });
    },

    /** The user of a live session; an expired or unknown session is null. */
    async findUser(idHash: string, now: Date, tx: Database = db): Promise<User | null> {
      const [row] = await tx
        .select({ user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)));
      return row?.user ?? null;
    },

    async delete(idHash: string, tx: Database = db): Promise<void> {
      await tx.delete(sessions).where(eq(sessions.idHash, idHash));
    },

    /** Removes sessions that expired before `now` (they already fail every check); returns how many. */
    deleteExpired(now: Date, tx: Database = db): Promise<number> {
      return deleteCounted(tx, lte(sessions.expiresAt, now));
    },

    /** Ends every session of a user (rejection, data deletion, an admin's decision); returns how many. */
    deleteAllForUser(userId: string, tx: Database = db): Promise<number> {
      return deleteCounted(tx, eq(sessions.userId, userId));
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
