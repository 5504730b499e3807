/**
 * `npm run curate`: one curation run from the command line, with progress. On the embedded database
 * it refuses while a server holds the data folder (use the dashboard's "Refresh now" then, or stop
 * the server); on PostgreSQL (DATABASE_URL) it runs beside the servers, under the same job lock.
 * In simulated mode it starts a simulated provider of its own, which accepts the server's tokens.
 */
import Fastify from 'fastify';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { acquirePidLock, DataDirLockedError } from '../server/db/pid-lock.ts';
import { runCuration } from '../server/services/curation/curate.ts';
import { SITE_PUBLISH_INTERVAL_MS } from '../server/jobs/index.ts';
import { loadSecrets } from '../server/secrets.ts';
import { createThreadsClient } from '../server/threads/live-client.ts';
import simulatedProvider from '../server/threads/simulated/provider.ts';
import { SimulatedThreadsStore, simulatedTokenKey } from '../server/threads/simulated/store.ts';
import { SIMULATED_PREFIX, threadsSettings } from '../server/threads/settings.ts';

/** Exits with a message (the finally blocks still close what was opened). */
class Refusal extends Error {}

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
  const settings = threadsSettings(config);
  const provider = config.threads.mode === 'simulated' ? Fastify({ logger: false }) : null;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    let graphBaseUrl = config.threads.graphBaseUrl;
    if (provider) {
      await provider.register(simulatedProvider, {
        prefix: SIMULATED_PREFIX,
        clientId: settings.appId,
        clientSecret: settings.appSecret,
        redirectUris: settings.redirectUris,
        store: new SimulatedThreadsStore(Date.now, simulatedTokenKey(secrets.sessionSecret)),
        appOrigin: () => config.publicUrl.origin,
        mediaOrigin: () => config.publicUrl.origin,
      });
      graphBaseUrl = `${await provider.listen({ port: 0, host: '127.0.0.1' })}${SIMULATED_PREFIX}`;
    }
    const gateway = createThreadsClient({
      graphBaseUrl,
      appId: settings.appId,
      appSecret: settings.appSecret,
    });
    console.log(
      `Curating (Threads: ${config.threads.mode}, ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})...`,
    );
    const outcome = await database.withJobLock('curate', () =>
      runCuration({
        db: database.db,
        gateway,
        tokenKey: secrets.tokenKey,
        settings: config.curation,
        adminUsernames: config.adminUsernames,
        trigger: 'cli',
        progress: (line) => console.log(`  ${line}`),
      }),
    );
    if (!outcome.ran)
      throw new Refusal('Another instance is running a curation right now. Try again in a minute.');
    const { result } = outcome;
    console.log(
      database.kind === 'pglite'
        ? 'The site shows approved threads after the next `npm start`.'
        : `Running servers publish the changes within ${SITE_PUBLISH_INTERVAL_MS / 60_000} minutes.`,
    );
    return result.status === 'failed' ? 1 : 0;
  } finally {
    await provider?.close();
    await database.close();
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
