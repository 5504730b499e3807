/**
 * `publish`: export the catalogue and publish the site now, instead of waiting for the next change
 * or start. The embedded database is read only by its running server, so the CLI asks that server
 * (the control socket, decision 050); on PostgreSQL it sends the notice an approval sends, and the
 * instances publish as they do after one (decisions 033 and 036).
 */
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { acquirePidLock, DataDirLockedError } from '../../server/db/pid-lock.ts';
import { CONTENT_CHANGES_CHANNEL, contentChangeNotice } from '../../server/plugins/content-changes.ts';
import { ControlSocketUnavailable, requestPublish } from '../../server/services/backups/control-socket.ts';
import { printJson, Refusal, type AdminIo, type Command } from './cli.ts';

async function publish(io: AdminIo, json: boolean): Promise<void> {
  const config = loadConfig(io.env);
  if (config.databaseUrl) {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      await database.notify?.(CONTENT_CHANGES_CHANNEL, contentChangeNotice('threads', 'admin-cli'));
    } finally {
      await database.close();
    }
    if (json) printJson(io, { notified: true });
    else
      io.stdout(
        'Asked every running instance to publish: the one holding the publisher lease exports and builds, the others follow.',
      );
    return;
  }
  // The lock taken means no server holds the folder: nothing to ask, and the next start publishes.
  const free = await acquirePidLock(config.dataDir).then(
    async (lock) => (await lock.release(), true),
    (error: unknown) => {
      if (error instanceof DataDirLockedError) return false;
      throw error;
    },
  );
  if (free)
    throw new Refusal(
      `No server runs on ${config.dataDir}: the server exports the catalogue and builds the site when it starts.`,
    );
  const result = await requestPublish(config.dataDir).catch((error: unknown) => {
    throw error instanceof ControlSocketUnavailable ? new Refusal(error.message) : error;
  });
  if (json) printJson(io, result);
  else if (result.published)
    io.stdout('Published: the server exported the catalogue and serves the new site.');
  else io.stdout('This server does not serve the site (SERVE_SITE=false): nothing was published here.');
}

/** The command that publishes now. */
export const publishCommands: Command[] = [
  {
    name: 'publish',
    params: [],
    json: true,
    summary:
      'exports the catalogue and publishes the site now (through the running server, or every instance on PostgreSQL)',
    run: ({ json, io }) => publish(io, json),
  },
];
