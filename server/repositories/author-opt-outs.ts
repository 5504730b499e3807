import { eq, inArray, or } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { authorOptOuts, users } from '../db/schema.ts';

export type AuthorOptOut = typeof authorOptOuts.$inferSelect;

/** Who curation must leave alone: opted-out authors by lower-case username and by user id. */
export interface OptedOutAuthors {
  usernames: ReadonlySet<string>;
  userIds: ReadonlySet<string>;
}

/** Authors who asked never to be curated ('Never curate me'), keyed on their Threads user id. */
export function createAuthorOptOutsRepository(db: Database) {
  return {
    async find(threadsUserId: string, tx: Database = db): Promise<AuthorOptOut | null> {
      const [row] = await tx
        .select()
        .from(authorOptOuts)
        .where(eq(authorOptOuts.threadsUserId, threadsUserId));
      return row ?? null;
    },

    /** Records the opt-out; false when it was already recorded (the first moment is kept). */
    async add(threadsUserId: string, username: string, tx: Database = db): Promise<boolean> {
      const rows = await tx
        .insert(authorOptOuts)
        .values({ threadsUserId, username: username.toLowerCase() })
        .onConflictDoNothing()
        .returning({ id: authorOptOuts.threadsUserId });
      return rows.length > 0;
    },

    /** Withdraws the opt-out; false when there was none. */
    async remove(threadsUserId: string, tx: Database = db): Promise<boolean> {
      const rows = await tx
        .delete(authorOptOuts)
        .where(eq(authorOptOuts.threadsUserId, threadsUserId))
        .returning({ id: authorOptOuts.threadsUserId });
      return rows.length > 0;
    },

    /** Keeps an opt-out's username the one the author has on Threads now (called at each sign-in). */
    async refreshUsername(threadsUserId: string, username: string, tx: Database = db): Promise<void> {
      await tx
        .update(authorOptOuts)
        .set({ username: username.toLowerCase() })
        .where(eq(authorOptOuts.threadsUserId, threadsUserId));
    },

    /** Every opted-out author, by username and (when they have an account here) by user id. */
    async all(tx: Database = db): Promise<OptedOutAuthors> {
      const rows = await tx
        .select({ username: authorOptOuts.username, userId: users.id })
        .from(authorOptOuts)
        .leftJoin(users, eq(users.threadsUserId, authorOptOuts.threadsUserId));
      return {
        usernames: new Set(rows.map((row) => row.username)),
        userIds: new Set(rows.flatMap((row) => (row.userId ? [row.userId] : []))),
      };
    },

    /** Which of these lower-case usernames or user ids belong to an opted-out author. */
    async among(usernames: string[], userIds: string[], tx: Database = db): Promise<OptedOutAuthors> {
      if (usernames.length === 0 && userIds.length === 0) return { usernames: new Set(), userIds: new Set() };
      const rows = await tx
        .select({ username: authorOptOuts.username, userId: users.id })
        .from(authorOptOuts)
        .leftJoin(users, eq(users.threadsUserId, authorOptOuts.threadsUserId))
        .where(
          or(
            usernames.length ? inArray(authorOptOuts.username, usernames) : undefined,
            userIds.length ? inArray(users.id, userIds) : undefined,
          ),
        );
      return {
        usernames: new Set(rows.map((row) => row.username)),
        userIds: new Set(rows.flatMap((row) => (row.userId ? [row.userId] : []))),
      };
    },
  };
}
export type AuthorOptOutsRepository = ReturnType<typeof createAuthorOptOutsRepository>;
