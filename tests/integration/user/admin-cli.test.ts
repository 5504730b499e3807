import { expect, test } from 'vitest';
import { openPglite } from '../../../server/db/client.ts';
import { createRoleBindingsRepository } from '../../../server/repositories/role-bindings.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';
import { HINT, IN_PROCESS, runAdmin } from '../helpers/admin-cli.ts';
import { migratedDataDir } from '../helpers/migrated-data-dir.ts';

const run = (dataDir: string, ...args: string[]) => runAdmin(dataDir, args);

/** A fresh data folder whose database holds users who signed in as [threads user id, username]. */
async function dataDirWith(...signedIn: [string, string][]): Promise<string> {
  const dataDir = await migratedDataDir('ct-admin-');
  const database = await openPglite(dataDir);
  await database.migrate();
  const users = createUsersRepository(database.db);
  for (const [id, username] of signedIn) await users.upsertOnSignIn(id, username);
  await database.close();
  return dataDir;
}

test(
  'npm run admin grants and revokes the role of a user who signed in; explains every refusal',
  IN_PROCESS,
  async () => {
    const dataDir = await dataDirWith(['17841400000000001', 'Maren']);

    expect(await run(dataDir, 'grant', '@maren')).toEqual({
      code: 0,
      stdout: '@Maren is now an admin.',
      stderr: '',
    });
    const check = await openPglite(dataDir);
    expect((await createUsersRepository(check.db).findByThreadsUserId('17841400000000001'))?.isAdmin).toBe(
      true,
    );
    await check.close();

    expect(await run(dataDir, 'revoke', 'maren')).toEqual({
      code: 0,
      stdout: '@Maren is no longer an admin.',
      stderr: '',
    });
    expect(await run(dataDir, 'grant', 'nobody')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No user @nobody: they must sign in once before they can be made an admin.',
    });
    expect(await run(dataDir, 'promote', 'maren')).toEqual({
      code: 2,
      stdout: '',
      stderr: `Unknown command: promote. ${HINT}`,
    });
  },
);

test('a username two accounts have used is refused; the Threads user id picks one', IN_PROCESS, async () => {
  // The first owner renamed on Threads but has not signed in since; the name now belongs to another.
  const dataDir = await dataDirWith(['17841400000000002', 'studio'], ['17841400000000003', 'Studio']);

  expect(await run(dataDir, 'grant', 'studio')).toEqual({
    code: 1,
    stdout: '',
    stderr:
      'Several accounts have signed in as @studio (Threads user ids 17841400000000002, 17841400000000003); run again with id:<threads-user-id>.',
  });
  expect(await run(dataDir, 'grant', 'id:17841400000000003')).toEqual({
    code: 0,
    stdout: '@Studio is now an admin.',
    stderr: '',
  });
  expect(await run(dataDir, 'grant', 'id:999')).toEqual({
    code: 1,
    stdout: '',
    stderr: 'No user with Threads user id 999 has signed in.',
  });
  const check = await openPglite(dataDir);
  const admins = await createUsersRepository(check.db).findByThreadsUsername('studio');
  expect(admins.map((user) => [user.threadsUserId, user.isAdmin]).sort()).toEqual([
    ['17841400000000002', false],
    ['17841400000000003', true],
  ]);
  await check.close();
});

test(
  'revoking says when the person stays an admin through ADMIN_THREADS_USERNAMES, and only then',
  IN_PROCESS,
  async () => {
    // The first owner of @studio (bound at their first sign-in) renamed; a newcomer now holds @studio.
    const dataDir = await dataDirWith(['17841400000000005', 'studio_old'], ['17841400000000006', 'studio']);
    const database = await openPglite(dataDir);
    await createRoleBindingsRepository(database.db).bindOnSignIn(['admin'], 'studio', '17841400000000005');
    await database.close();
    const env = { ADMIN_THREADS_USERNAMES: 'studio' };

    expect(await runAdmin(dataDir, ['revoke', 'studio_old'], env)).toEqual({
      code: 0,
      stdout:
        '@studio_old is no longer an admin.\nNote: @studio_old first signed in under a username ADMIN_THREADS_USERNAMES lists (or the simulated admin) and stays an admin through it; remove that username from the list to end it.',
      stderr: '',
    });
    expect(await runAdmin(dataDir, ['revoke', 'studio'], env)).toEqual({
      code: 0,
      stdout: '@studio is no longer an admin.',
      stderr: '',
    });
  },
);
