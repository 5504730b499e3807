/**
 * Who has signed in and who waits for an invite: `users`, `invites`, `approve`, `reject`. Deciding
 * goes through the same service as `POST /api/admin/approve-user`.
 */
import { CONTENT_CHANGES_CHANNEL, contentChangeNotice } from '../../server/plugins/content-changes.ts';
import { createProfilesRepository } from '../../server/repositories/profiles.ts';
import { createUsersRepository, type UserOverview } from '../../server/repositories/users.ts';
import {
  decideInvite,
  InviteDecisionError,
  type InviteAction,
} from '../../server/services/profiles/decide-invite.ts';
import { toPendingUser } from '../../server/views/profile-views.ts';
import { findUser, printJson, printTable, Refusal, withDatabase, type AdminIo, type Command } from './cli.ts';

function adminLabel({ user, configuredAdmin }: UserOverview): string {
  if (user.isAdmin && configuredAdmin) return 'yes (granted, configured)';
  if (user.isAdmin) return 'yes (granted)';
  return configuredAdmin ? 'yes (configured)' : 'no';
}

const usersCommand: Command = {
  name: 'users',
  params: [],
  summary: 'everyone who has signed in: username, Threads user id, admin, invite status',
  json: true,
  run: ({ json, io }) =>
    withDatabase(io.env, async ({ config, database }) => {
      const rows = await createUsersRepository(database.db).listOverview(config.adminUsernames);
      if (json) {
        printJson(
          io,
          rows.map((row) => ({
            threads_username: row.user.threadsUsername,
            user_id: row.user.threadsUserId,
            admin: row.user.isAdmin || row.configuredAdmin,
            admin_granted: row.user.isAdmin,
            admin_configured: row.configuredAdmin,
            profile_status: row.profileStatus,
          })),
        );
      } else if (rows.length === 0) io.stdout('No user has signed in yet.');
      else {
        printTable(
          io,
          ['USERNAME', 'THREADS USER ID', 'ADMIN', 'INVITE'],
          rows.map((row) => [
            `@${row.user.threadsUsername}`,
            row.user.threadsUserId,
            adminLabel(row),
            row.profileStatus ?? 'not requested',
          ]),
        );
      }
    }),
};

const invitesCommand: Command = {
  name: 'invites',
  params: [],
  summary: 'pending invite requests, oldest first',
  json: true,
  run: ({ json, io }) =>
    withDatabase(io.env, async ({ database }) => {
      // The same view the dashboard's Pending Users list reads, so scripts see the API's fields.
      const pending = (await createProfilesRepository(database.db).listPending()).map(toPendingUser);
      if (json) printJson(io, pending);
      else if (pending.length === 0) io.stdout('No pending invite requests.');
      else {
        printTable(
          io,
          ['REQUESTED', 'USERNAME', 'THREADS USER ID', 'DISPLAY NAME'],
          pending.map((invite) => [
            invite.requested_at,
            `@${invite.threads_username}`,
            invite.user_id,
            invite.display_username ?? '-',
          ]),
        );
      }
    }),
};

function decideCommand(action: InviteAction): Command {
  return {
    name: action,
    params: ['<user>'],
    summary:
      action === 'approve'
        ? 'approves a pending invite request (as the dashboard does)'
        : 'rejects a pending invite request (as the dashboard does)',
    run: ({ args: [target], io }) => decide(io, action, target),
  };
}

async function decide(io: AdminIo, action: InviteAction, target: string | undefined): Promise<void> {
  await withDatabase(io.env, async ({ database }) => {
    const user = await findUser(createUsersRepository(database.db), target ?? '');
    // No signed-in admin acts here: the audit entry has no actor and says where it came from.
    const status = await decideInvite(database.db, {
      actorUserId: null,
      userId: user.id,
      action,
      details: { via: 'admin-cli' },
    }).catch((error: unknown) => {
      if (error instanceof InviteDecisionError)
        throw new Refusal(`@${user.threadsUsername}: ${error.message}`);
      throw error;
    });
    io.stdout(`@${user.threadsUsername}'s invite request is ${status}.`);
    if (status !== 'approved') return;
    // Running instances on PostgreSQL republish on this notice, as after an approval in the dashboard.
    // On the embedded database no server runs now (the lock says so); it publishes when it starts.
    if (!database.notify) {
      io.stdout('The profile page is published when the server next starts.');
      return;
    }
    try {
      await database.notify(CONTENT_CHANGES_CHANNEL, contentChangeNotice('profiles', 'admin-cli'));
      io.stdout('Running servers were told; they republish the profile pages.');
    } catch (error) {
      // The decision is committed: a failed notice is a note, not a failure of the command.
      io.stdout(`Running servers were not told (${(error as Error).message}); the next publish includes it.`);
    }
  });
}

/** The commands about members and invite requests. */
export const memberCommands: Command[] = [
  usersCommand,
  invitesCommand,
  decideCommand('approve'),
  decideCommand('reject'),
];
