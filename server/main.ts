// The only file that listens. Order matters: lock the data folder before touching it, open and migrate
// the database, build the app (which publishes the site when stale), serve; on a signal or a failed
// start, close what was opened.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { acquirePidLock, DataDirLockedError, type PidLock } from './db/pid-lock.ts';
import { logStreamFor } from './http/log-format.ts';
import { DatabaseUnreachableError, describeDatabaseUrl, waitForDatabase } from './db/wait-for-database.ts';
import { createAppMetaRepository } from './repositories/app-meta.ts';
import { loadSecrets } from './secrets.ts';
import { backUp } from './services/backups/back-up.ts';
import {
  controlSocketPath,
  openControlSocket,
  type ControlSocket,
} from './services/backups/control-socket.ts';
import { VERSION } from './version.ts';

/** A stuck request must not keep the process alive forever after Ctrl-C. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

let lock: PidLock | null = null;
let database: DatabaseHandle | null = null;
let app: FastifyInstance | null = null;
let control: ControlSocket | null = null;
let stopping = false;

/** Closes whatever is open, newest first; returns false if anything failed to close. */
async function closeAll(): Promise<boolean> {
  let clean = true;
  const [openApp, openDatabase_, heldLock, openControl] = [app, database, lock, control];
  const steps: [string, (() => Promise<unknown>) | undefined][] = [
    // First: a backup asked for now would find the database closing.
    ['control socket', openControl ? () => openControl.close() : undefined],
    // app.close() also closes the database (onClose hook); closing it again is harmless.
    ['server', openApp ? () => openApp.close() : undefined],
    ['database', openDatabase_ ? () => openDatabase_.close() : undefined],
    ['data folder lock', heldLock ? () => heldLock.release() : undefined],
  ];
  for (const [name, close] of steps) {
    try {
      await close?.();
    } catch (error) {
      clean = false;
      console.error(`Could not close the ${name}:`, error);
    }
  }
  return clean;
}

async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    console.error(`${signal} again: exiting without waiting.`);
    process.exit(1);
  }
  stopping = true;
  console.log(`\n${signal} received, shutting down...`);
  setTimeout(() => {
    console.error(`Shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s: exiting.`);
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
  process.exit((await closeAll()) ? 0 : 1);
}

async function start(): Promise<void> {
  const config = loadConfig(process.env);

  // PGlite has no lock of its own: a second process on the same folder would corrupt it.
  if (!config.databaseUrl) lock = await acquirePidLock(config.dataDir);

  database = await openDatabase({
    databaseUrl: config.databaseUrl,
    listenUrl: config.databaseListenUrl,
    dataDir: config.dataDir,
  });
  // A database started beside the app (compose, a restart) may take a while to accept connections.
  if (config.databaseUrl) await waitForDatabase(database, describeDatabaseUrl(config.databaseUrl));
  await database.migrate();
  await createAppMetaRepository(database.db).set('last_started_version', VERSION);

  const logStream = await logStreamFor(config.logFormat);
  const secrets = await loadSecrets(config);
  app = await buildApp({ config, database, secrets, ...(logStream ? { logStream } : {}) });
  await app.listen({ port: config.port, host: config.host });
  // The embedded database can only be read by this process: `npm run admin -- backup` and `publish`
  // ask it here. (On PostgreSQL the CLI reaches the database, and every instance, itself.)
  if (database.kind === 'pglite') control = await openControl(config, database, secrets.tokenKey, app);
  const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  // A split deployment (API_BASE_URL): the pages live at PUBLIC_URL, this API answers them elsewhere.
  const api = config.apiBaseUrl ? `, API at ${config.apiBaseUrl}` : '';
  console.log(
    `\nCurated Threads is running at ${config.publicUrl.origin}/ (${where}, Threads: ${config.threads.mode}${api})`,
  );
  console.log('Press Ctrl-C to stop.\n');
}

/**
 * The control socket (decision 050): backups of the embedded database, and a publish now. A server
 * that cannot open it still runs, and says so.
 */
async function openControl(
  config: Config,
  handle: DatabaseHandle,
  tokenKey: Buffer,
  server: FastifyInstance,
): Promise<ControlSocket | null> {
  const backup = () => backUp({ config, database: handle, tokenKey, takenBy: 'server' });
  const publish = async () => {
    server.publisher.request('threads');
    await server.publisher.settled();
    return { published: config.serveSite };
  };
  try {
    return await openControlSocket(config.dataDir, { backup, publish });
  } catch (error) {
    console.error(
      `The control socket ${controlSocketPath(config.dataDir)} could not be opened (${(error as Error).message}): npm run admin -- backup and publish work only while the server is stopped.`,
    );
    return null;
  }
}

process.on('SIGINT', (signal) => void stop(signal));
process.on('SIGTERM', (signal) => void stop(signal));

start().catch(async (error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof DatabaseUnreachableError
  )
    console.error(error.message);
  else console.error('Curated Threads could not start:', error);
  await closeAll();
  process.exit(1);
});
