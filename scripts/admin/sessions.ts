/** `sessions revoke <user>` (also `signout <user>`): signs a member out everywhere. */
import { createSessionsRepository } from '../../server/repositories/sessions.ts';
import { createUsersRepository } from '../../server/repositories/users.ts';
import { findUser, withDatabase, type AdminIo, type Command } from './cli.ts';

async function signOut(io: AdminIo, target: string): Promise<void> {
  await withDatabase(io.env, async ({ database }) => {
    const user = await findUser(createUsersRepository(database.db), target);
    const removed = await createSessionsRepository(database.db).deleteAllForUser(user.id);
    // Sessions are checked against the database on every request, so this takes effect at once.
    io.stdout(`@${user.threadsUsername} is signed out: ${removed} session${removed === 1 ? '' : 's'} ended.`);
  });
}

/** The commands about sessions. */
export const sessionCommands: Command[] = [
  {
    name: 'sessions revoke',
    params: ['<user>'],
    summary: 'ends every session of a user (they must sign in again)',
    run: ({ args: [target], io }) => signOut(io, target ?? ''),
  },
  {
    name: 'signout',
    params: ['<user>'],
    summary: 'the same as sessions revoke',
    run: ({ args: [target], io }) => signOut(io, target ?? ''),
  },
];
