// The only file that listens: reads the configuration, builds the site if stale, opens and migrates
// the database, serves, and shuts down cleanly on SIGINT/SIGTERM.
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { appMetaRepository } from './repositories/app-meta.ts';
import { VERSION } from './version.ts';
import { acquirePidLock, DataDirLockedError, type PidLock } from './db/pid-lock.ts';
import { buildSite, staleReason } from './site/site-build.ts';

function siteBuildOptions(config: Config) {
  return {
    siteDir: config.siteDir,
    catalogueDir: config.catalogueDir,
    publicUrl: config.publicUrl.origin,
    contactEmail: config.contactEmail,
  };
}

async function start(): Promise<void> {
  const config = loadConfig(process.env);

  const reason = await staleReason(siteBuildOptions(config));
  if (reason) {
    console.log(`Building the site (${reason})...`);
    await buildSite(siteBuildOptions(config));
  }

  // PGlite has no lock of its own: a second process on the same folder would corrupt it.
  const lock: PidLock | null = config.databaseUrl ? null : await acquirePidLock(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  await appMetaRepository.set('last_started_version', VERSION, database.db);

  const app = await buildApp({ config, database });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    try {
      await app.close(); // closes the database too
    } finally {
      await lock?.release();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const database_ = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  console.log(
    `\nCurated Threads is running at ${config.publicUrl.origin}/ (${database_}, Threads: ${config.threads.mode})`,
  );
  console.log('Press Ctrl-C to stop.\n');
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error('Curated Threads could not start:', error);
  }
  process.exit(1);
});
