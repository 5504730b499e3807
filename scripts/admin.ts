/**
 * `npm run admin -- check-live`: checks the settings of a live Threads app (scripts/check-live.ts).
 *
 * `npm run admin -- grant|revoke <threads-username | id:threads-user-id>`: gives or takes the admin
 * role granted here (`users.is_admin`), bound to the account, not its username. The user must have
 * signed in once. Takes effect on the user's next request. A role from ADMIN_THREADS_USERNAMES is
 * another grant: it lasts while the username it was bound to stays in the list. On the embedded
 * database it refuses while a server holds the data folder (stop the server, or use DATABASE_URL).
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { acquirePidLock, DataDirLockedError } from '../server/db/pid-lock.ts';
import { createRoleBindingsRepository } from '../server/repositories/role-bindings.ts';
import { createUsersRepository, type User } from '../server/repositories/users.ts';
import { checkLine, checkLive } from './check-live.ts';

const USAGE =
  'usage: npm run admin -- grant|revoke <threads-username | id:threads-user-id>\n       npm run admin -- check-live';
const [action, rawName] = process.argv.slice(2);
if (action === 'check-live') {
  try {
    const checks = await checkLive(loadConfig(process.env));
    for (const check of checks) console.log(checkLine(check));
    const failed = checks.filter((check) => !check.ok).length;
    console.log(failed === 0 ? 'Ready for a live Threads app.' : `${failed} check(s) failed.`);
    process.exit(failed === 0 ? 0 : 1);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
if ((action !== 'grant' && action !== 'revoke') || !rawName) {
  console.error(USAGE);
  process.exit(2);
}

/** Exits with a message (the finally blocks still close the database). */
class Refusal extends Error {}

async function findUser(users: ReturnType<typeof createUsersRepository>, target: string): Promise<User> {
  if (target.startsWith('id:')) {
    const user = await users.findByThreadsUserId(target.slice(3));
    if (!user) throw new Refusal(`No user with Threads user id ${target.slice(3)} has signed in.`);
    return user;
  }
  const name = target.replace(/^@/, '');
  const found = await users.findByThreadsUsername(name);
  if (found.length === 0)
    throw new Refusal(`No user @${name}: they must sign in once before they can be made an admin.`);
  // A Threads username can change hands: never guess which person is meant.
  if (found.length > 1) {
    const ids = found.map((user) => user.threadsUserId).join(', ');
    throw new Refusal(
      `Several accounts have signed in as @${name} (Threads user ids ${ids}); run again with id:<threads-user-id>.`,
    );
  }
  return found[0] as User;
}

try {
  const config = loadConfig(process.env);
  const lock = config.databaseUrl ? null : await acquirePidLock(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const users = createUsersRepository(database.db);
    const user = await findUser(users, rawName);
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
  } finally {
    await database.close();
    await lock?.release();
  }
} catch (error) {
  const known =
    error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof Refusal;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
}
