/**
 * `npm run admin -- grant|revoke <threads-username>`: gives or takes the admin role. The user must
 * have signed in once. Takes effect on the user's next request. On the embedded database it refuses
 * while a server holds the data folder (stop the server, or run it against DATABASE_URL).
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { acquirePidLock, DataDirLockedError } from '../server/db/pid-lock.ts';
import { createUsersRepository } from '../server/repositories/users.ts';

const USAGE = 'usage: npm run admin -- grant|revoke <threads-username>';
const [action, rawName] = process.argv.slice(2);
if ((action !== 'grant' && action !== 'revoke') || !rawName) {
  console.error(USAGE);
  process.exit(2);
}
const username = rawName.replace(/^@/, '');

try {
  const config = loadConfig(process.env);
  const lock = config.databaseUrl ? null : await acquirePidLock(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const found = await createUsersRepository(database.db).setAdmin(username, action === 'grant');
    if (!found) {
      console.error(`No user @${username}: they must sign in once before they can be made an admin.`);
      process.exitCode = 1;
    } else {
      console.log(
        action === 'grant' ? `@${username} is now an admin.` : `@${username} is no longer an admin.`,
      );
      if (action === 'revoke' && config.adminUsernames.includes(username.toLowerCase())) {
        console.log(
          `Note: @${username} is also listed in ADMIN_THREADS_USERNAMES (or is the simulated admin) and stays an admin through it.`,
        );
      }
    }
  } finally {
    await database.close();
    await lock?.release();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
}
