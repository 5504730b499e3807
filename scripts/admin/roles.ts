/**
 * `grant|revoke <user>`: gives or takes the admin role granted here (`users.is_admin`), bound to the
 * account, not its username. The user must have signed in once. Takes effect on the user's next
 * request. A role from ADMIN_THREADS_USERNAMES is another grant: it lasts while the username it was
 * bound to stays in the list.
 */
import { createRoleBindingsRepository } from '../../server/repositories/role-bindings.ts';
import { createUsersRepository } from '../../server/repositories/users.ts';
import { findUser, withDatabase, type Command } from './cli.ts';

async function setRole(action: 'grant' | 'revoke', target: string): Promise<void> {
  await withDatabase(async ({ config, database }) => {
    const users = createUsersRepository(database.db);
    const user = await findUser(
      users,
      target,
      (name) => `No user @${name}: they must sign in once before they can be made an admin.`,
    );
    await users.setAdmin(user.id, action === 'grant');
    const who = `@${user.threadsUsername}`;
    console.log(action === 'grant' ? `${who} is now an admin.` : `${who} is no longer an admin.`);
    // Configuration binds the role to the person who first signed in under a listed username.
    const bound = await createRoleBindingsRepository(database.db).holds(
      'admin',
      config.adminUsernames,
      user.threadsUserId,
    );
    if (action === 'revoke' && bound) {
      console.log(
        `Note: ${who} first signed in under a username ADMIN_THREADS_USERNAMES lists (or the simulated admin) and stays an admin through it; remove that username from the list to end it.`,
      );
    }
  });
}

/** The commands that grant and revoke the admin role. */
export const roleCommands: Command[] = [
  {
    name: 'grant',
    params: ['<user>'],
    summary: 'makes a user who has signed in an admin',
    run: ({ args: [target] }) => setRole('grant', target ?? ''),
  },
  {
    name: 'revoke',
    params: ['<user>'],
    summary: 'takes back the admin role granted with grant',
    run: ({ args: [target] }) => setRole('revoke', target ?? ''),
  },
];
