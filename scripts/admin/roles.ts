/**
 * `grant|revoke <user>`: gives or takes the admin role granted here (`users.is_admin`), bound to the
 * account, not its username. The user must have signed in once. Takes effect on the user's next
 * request. A role from ADMIN_THREADS_USERNAMES is another grant: it lasts while the username it was
 * bound to stays in the list.
 */
import { createRoleBindingsRepository } from '../../server/repositories/role-bindings.ts';
import { createUsersRepository } from '../../server/repositories/users.ts';
import { findUser, Refusal, UsageError, withDatabase, type AdminIo, type Command } from './cli.ts';
import { createAuditLogRepository } from '../../server/repositories/audit-log.ts';

async function setRole(io: AdminIo, action: 'grant' | 'revoke', target: string): Promise<void> {
  await withDatabase(io.env, async ({ config, database }) => {
    const users = createUsersRepository(database.db);
    const user = await findUser(
      users,
      target,
      (name) => `No user @${name}: they must sign in once before they can be made an admin.`,
    );
    await users.setAdmin(user.id, action === 'grant');
    const who = `@${user.threadsUsername}`;
    io.stdout(action === 'grant' ? `${who} is now an admin.` : `${who} is no longer an admin.`);
    // Configuration binds the role to the person who first signed in under a listed username.
    const bound = await createRoleBindingsRepository(database.db).holds(
      'admin',
      config.adminUsernames,
      user.threadsUserId,
    );
    if (action === 'revoke' && bound) {
      io.stdout(
        `Note: ${who} first signed in under a username ADMIN_THREADS_USERNAMES lists (or the simulated admin) and stays an admin through it; remove that username from the list to end it.`,
      );
    }
  });
}

/**
 * `rebind <admin|curator> <user>`: the role configured for the user's current username (in
 * ADMIN_THREADS_USERNAMES or CURATOR_THREADS_USERNAME) moves to this account, from whoever first
 * signed in under that name (decision 012: a username can change hands, the binding does not).
 */
async function rebind(io: AdminIo, role: string, target: string): Promise<void> {
  if (role !== 'admin' && role !== 'curator')
    throw new UsageError(`rebind takes admin or curator, not ${role || 'nothing'}.`);
  await withDatabase(io.env, async ({ config, database }) => {
    const user = await findUser(createUsersRepository(database.db), target);
    const name = user.threadsUsername.toLowerCase();
    const configured =
      role === 'admin' ? config.adminUsernames : [config.curation.curatorUsername ?? ''].filter(Boolean);
    const setting = role === 'admin' ? 'ADMIN_THREADS_USERNAMES' : 'CURATOR_THREADS_USERNAME';
    if (!configured.includes(name))
      throw new Refusal(`@${user.threadsUsername} is not in ${setting}: add the username there first.`);
    await database.db.transaction(async (tx) => {
      await createRoleBindingsRepository(database.db).rebind(role, name, user.threadsUserId, tx);
      await createAuditLogRepository(database.db).record(
        { actorUserId: null, action: `role.rebound.${role}`, subject: user.id },
        tx,
      );
    });
    io.stdout(
      `The ${role} role of @${user.threadsUsername} now belongs to Threads user id ${user.threadsUserId}.`,
    );
  });
}

/** The commands that grant and revoke the admin role, and move a configured role to a new account. */
export const roleCommands: Command[] = [
  {
    name: 'grant',
    params: ['<user>'],
    summary: 'makes a user who has signed in an admin',
    run: ({ args: [target], io }) => setRole(io, 'grant', target ?? ''),
  },
  {
    name: 'revoke',
    params: ['<user>'],
    summary: 'takes back the admin role granted with grant',
    run: ({ args: [target], io }) => setRole(io, 'revoke', target ?? ''),
  },
  {
    name: 'rebind',
    params: ['<admin|curator>', '<user>'],
    summary:
      "moves a role configured for the user's username to this account (a new account under that name)",
    run: ({ args: [role, target], io }) => rebind(io, role ?? '', target ?? ''),
  },
];
