/**
 * `npm run curate`: one curation run from the command line, with progress. On the embedded database
 * it refuses while a server holds the data folder (use the dashboard's "Refresh now" then, or stop
 * the server) and exports the catalogue after the run, as the server does; on PostgreSQL
 * (DATABASE_URL) it runs beside the servers, under the same job lease, and tells them of the run
 * (LISTEN/NOTIFY), leaving the export to them.
 * It uses the server's own plugins: in simulated mode it mounts a simulated provider of its own,
 * which accepts the server's tokens.
 */
import Fastify from 'fastify';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { acquirePidLock, DataDirLockedError } from '../server/db/pid-lock.ts';
import { SITE_PUBLISH_INTERVAL_MS } from '../server/jobs/index.ts';
import contentChanges from '../server/plugins/content-changes.ts';
import databasePlugin from '../server/plugins/database.ts';
import scheduler from '../server/plugins/scheduler.ts';
import threadsGateway from '../server/plugins/threads-gateway.ts';
import { loadSecrets } from '../server/secrets.ts';
import { exportCatalogue } from '../server/publisher/export/export-catalogue.ts';
import { catalogueExportFor } from '../server/publisher/build/build-site.ts';

/** Exits with a message (the finally blocks still close what was opened). */
class Refusal extends Error {}

/** Where the CLI's own simulated provider listens (only this process calls it). */
const LOOPBACK = '127.0.0.1';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  let lock;
  try {
    lock = config.databaseUrl ? null : await acquirePidLock(config.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new Refusal(
      `A running server holds the embedded database in ${config.dataDir}, so this command cannot open it.\n` +
        'Start a run from the dashboard instead (Pending Review, "Refresh now"), or stop the server first.\n' +
        'With PostgreSQL (DATABASE_URL) this command runs beside the servers.',
    );
  }
  const secrets = await loadSecrets(config);
  const app = Fastify({ logger: false });
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      listenUrl: config.databaseListenUrl,
      dataDir: config.dataDir,
    });
    await app.register(databasePlugin, { database });
    await database.migrate();
    await app.register(contentChanges);
    await app.register(threadsGateway, { config, sessionSecret: secrets.sessionSecret, host: LOOPBACK });
    await app.register(scheduler, {
      config,
      tokenKey: secrets.tokenKey,
      schedule: false,
      progress: (_job, line) => console.log(`  ${line}`),
    });
    // The simulated provider is reached over HTTP, like the real one.
    if (config.threads.mode === 'simulated') await app.listen({ port: 0, host: LOOPBACK });
    else await app.ready();

    console.log(
      `Curating (Threads: ${config.threads.mode}, ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})...`,
    );
    const outcome = await app.runJob('curate', 'cli');
    if (!outcome.ran)
      throw new Refusal('Another instance is running a curation right now. Try again in a minute.');
    if (database.kind === 'pglite') {
      // No server runs on this data folder (the lock says so): export as the server does after a run,
      // so `npm run build` and the next start see it. On PostgreSQL each server exports into its own
      // folder within minutes; writing a server's folder here would hide the change from its deploy
      // triggers, which deliver what their own export changed.
      const catalogue = catalogueExportFor(config);
      const changed = await exportCatalogue(database.db, catalogue);
      console.log(`Catalogue exported to ${catalogue.catalogueDir}${changed ? '' : ' (no card changed)'}.`);
      console.log('The site shows approved threads after the next `npm start` or `npm run build`.');
    } else {
      console.log(
        `Running servers hear of the run at once and publish it (within ${SITE_PUBLISH_INTERVAL_MS / 60_000} minutes at the latest).`,
      );
    }
    return outcome.result.status === 'failed' ? 1 : 0;
  } finally {
    // Closes the database too (the database plugin's onClose).
    await app.close();
    await lock?.release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof Refusal;
    console.error(known ? (error as Error).message : error);
    process.exit(1);
  },
);
