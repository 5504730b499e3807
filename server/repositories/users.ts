import { and, eq, ne, sql } from 'drizzle-orm';
import { foldName } from '../../contract/name-fold.ts';
import type { ProfileStatus } from '../../contract/profile.ts';
import type { Database } from '../db/client.ts';
import { foldedName } from '../db/name-fold.ts';
import { profiles, users } from '../db/schema.ts';
import { holdsRole } from './role-bindings.ts';

export type User = typeof users.$inferSelect;
export interface UserOverview {
  user: User;
  /** Null when the user never asked for an invite. */
  profileStatus: ProfileStatus | null;
  /** Admin through ADMIN_THREADS_USERNAMES (the role bound at first sign-in), whatever `isAdmin` says. */
  configuredAdmin: boolean;
}

/** Users, keyed on their Threads user id. */
export function createUsersRepository(db: Database) {
  return {
    /**
     * Creates the user on first sign-in, or records the new sign-in (and a changed username) for
     * an existing one. A successful sign-in also clears "reconnect needed".
     */
    async upsertOnSignIn(threadsUserId: string, threadsUsername: string, tx: Database = db): Promise<User> {
      const [user] = await tx
        .insert(users)
        .values({ threadsUserId, threadsUsername })
        .onConflictDoUpdate({
          target: users.threadsUserId,
          set: { threadsUsername, lastLoginAt: sql`now()`, reconnectNeeded: false },
        })
        .returning();
      if (!user) throw new Error('upsert returned no row');
      return user;
    },

    async findByThreadsUserId(threadsUserId: string, tx: Database = db): Promise<User | null> {
      const [user] = await tx.select().from(users).where(eq(users.threadsUserId, threadsUserId));
      return user ?? null;
    },

    /**
     * Users who signed in under this Threads username, without regard to case. Usually one, but a
     * username can change hands on Threads, so the older account may still carry it here.
     */
    async findByThreadsUsername(threadsUsername: string, tx: Database = db): Promise<User[]> {
      return tx
        .select()
        .from(users)
        .where(sql`lower(${users.threadsUsername}) = lower(${threadsUsername})`);
    },

    /**
     * The Threads usernames of users other than `userId` that fold like `name` (decision 065): the
     * same handle in another case, or a lookalike (`ori.ux` for `ori_ux`).
     */
    async handlesLike(name: string, userId: string, tx: Database = db): Promise<string[]> {
      const rows = await tx
        .select({ handle: users.threadsUsername })
        .from(users)
        .where(and(sql`${foldedName(users.threadsUsername)} = ${foldName(name)}`, ne(users.id, userId)));
      return rows.map((row) => row.handle);
    },

    /** Every user with their invite status, by username; `adminUsernames` as configured now. */
    async listOverview(adminUsernames: readonly string[], tx: Database = db): Promise<UserOverview[]> {
      return tx
        .select({
          user: users,
          profileStatus: profiles.status,
          configuredAdmin: sql<boolean>`${holdsRole('admin', adminUsernames)}`,
        })
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .orderBy(sql`lower(${users.threadsUsername})`, users.threadsUserId);
    },

    /** Grants or revokes the admin role of one user. */
    async setAdmin(id: string, admin: boolean, tx: Database = db): Promise<void> {
      await tx.update(users).set({ isAdmin: admin }).where(eq(users.id, id));
    },

    /** Deletes the user; sessions, tokens and the profile go with it (foreign keys cascade). */
    async delete(id: string, tx: Database = db): Promise<void> {
      await tx.delete(users).where(eq(users.id, id));
    },

    async setReconnectNeeded(id: string, needed: boolean, tx: Database = db): Promise<void> {
      await tx.update(users).set({ reconnectNeeded: needed }).where(eq(users.id, id));
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
