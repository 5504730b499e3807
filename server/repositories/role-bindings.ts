import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { roleBindings, users, type BOUND_ROLES } from '../db/schema.ts';

export type BoundRole = (typeof BOUND_ROLES)[number];

/**
 * Roles granted by configuration (ADMIN_THREADS_USERNAMES, CURATOR_THREADS_USERNAME), bound to the
 * Threads user id of the first person who signed in under the configured username. A username can
 * change hands on Threads; the user id does not.
 */
export function createRoleBindingsRepository(db: Database) {
  return {
    /**
     * At sign-in: binds each role to this Threads user id unless someone already holds it under this
     * username (first sign-in wins; later ones change nothing). `username` is stored lower case.
     */
    async bindOnSignIn(
      roles: readonly BoundRole[],
      username: string,
      threadsUserId: string,
      tx: Database = db,
    ): Promise<void> {
      if (roles.length === 0) return;
      await tx
        .insert(roleBindings)
        .values(roles.map((role) => ({ role, username: username.toLowerCase(), threadsUserId })))
        .onConflictDoNothing();
    },

    /**
     * Hands the role bound under `username` to `threadsUserId` (a new account under the configured
     * name, decision 012): replaces the binding instead of waiting for the first sign-in to win.
     */
    async rebind(role: BoundRole, username: string, threadsUserId: string, tx: Database = db): Promise<void> {
      await tx
        .insert(roleBindings)
        .values({ role, username: username.toLowerCase(), threadsUserId })
        .onConflictDoUpdate({
          target: [roleBindings.role, roleBindings.username],
          set: { threadsUserId, createdAt: new Date() },
        });
    },

    /** Whether this Threads user id holds the role under one of the usernames configured now. */
    async holds(
      role: BoundRole,
      usernames: readonly string[],
      threadsUserId: string,
      tx: Database = db,
    ): Promise<boolean> {
      if (usernames.length === 0) return false;
      const [row] = await tx
        .select({ username: roleBindings.username })
        .from(roleBindings)
        .where(
          and(
            eq(roleBindings.role, role),
            eq(roleBindings.threadsUserId, threadsUserId),
            inArray(roleBindings.username, [...usernames]),
          ),
        )
        .limit(1);
      return row !== undefined;
    },
  };
}

/**
 * A condition on `users`: the user holds the role under one of the usernames configured now. For
 * queries that pick users by role (whose token searches).
 */
export function holdsRole(role: BoundRole, usernames: readonly string[]): SQL {
  if (usernames.length === 0) return sql`false`;
  return sql`exists (select 1 from ${roleBindings} where ${roleBindings.role} = ${role} and ${roleBindings.threadsUserId} = ${users.threadsUserId} and ${inArray(roleBindings.username, [...usernames])})`;
}

export type RoleBindingsRepository = ReturnType<typeof createRoleBindingsRepository>;
