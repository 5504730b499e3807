/**
 * Restoring a backup: the embedded database into DATA_DIR (only while no server holds it), or a
 * pg_dump into the PostgreSQL database DATABASE_URL names; then the backup's secrets.json.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../../config.ts';
import { acquirePidLock } from '../../db/pid-lock.ts';
import type { Backup } from './backup-folder.ts';
import { restoreSecrets, restoreSecretsWarnings, SECRETS_FILE } from './backup-secrets.ts';
import { runPgTool } from './pg-tools.ts';
import { dataFolderContents, setAside } from './set-aside.ts';
import { countRows, type RunSql } from './table-counts.ts';

/** The restore was understood but cannot be done as asked (one line for the operator). */
export class RestoreRefusal extends Error {
  override name = 'RestoreRefusal';
}

export interface RestoreResult {
  name: string;
  kind: Backup['manifest']['kind'];
  takenAt: string;
  /** Where the old contents went (embedded: a folder in DATA_DIR; PostgreSQL: secrets.json only); null: nothing was there. */
  setAside: string | null;
  secretsRestored: boolean;
  /** Rows per table in the restored database. */
  rows: Record<string, number>;
  warnings: string[];
}

export interface RestoreOptions {
  config: Config;
  backup: Backup;
  /** Replace what is there (moved aside, never deleted). */
  force: boolean;
  now?: () => Date;
}

/** The backup must match the database the configuration names: no conversion between the two. */
function checkKind(config: Config, backup: Backup): void {
  const kind = backup.manifest.kind;
  if (kind === 'pglite' && config.databaseUrl) {
    throw new RestoreRefusal(
      `${backup.name} is a backup of the embedded database: unset DATABASE_URL to restore it into DATA_DIR.`,
    );
  }
  if (kind === 'postgres' && !config.databaseUrl) {
    throw new RestoreRefusal(
      `${backup.name} is a PostgreSQL backup (pg_dump): set DATABASE_URL to the database to restore it into.`,
    );
  }
}

function summary(
  options: RestoreOptions,
  setAsideFolder: string | null,
  secrets: boolean,
  rows: Record<string, number>,
): RestoreResult {
  const { backup, config } = options;
  return {
    name: backup.name,
    kind: backup.manifest.kind,
    takenAt: backup.manifest.takenAt,
    setAside: setAsideFolder,
    secretsRestored: secrets,
    rows,
    warnings: restoreSecretsWarnings(backup.manifest, config.secrets.tokenKey),
  };
}

/** Loads the tarball into a staging folder first: a broken backup leaves DATA_DIR as it was. */
async function loadTarball(backup: Backup, staging: string): Promise<Record<string, number>> {
  const bytes = await readFile(path.join(backup.path, backup.manifest.databaseFile));
  const tarball = new File([bytes], backup.manifest.databaseFile, { type: 'application/x-gzip' });
  const client = await PGlite.create({ dataDir: staging, loadDataDir: tarball });
  try {
    return await countRows(
      async (statement) => (await client.query<Record<string, unknown>>(statement)).rows,
    );
  } finally {
    await client.close();
  }
}

/** Restores an embedded-database backup into DATA_DIR; refuses while a server (any process) holds it. */
async function restoreEmbedded(options: RestoreOptions): Promise<RestoreResult> {
  const { config, backup, force } = options;
  const lock = await acquirePidLock(config.dataDir);
  try {
    const present = await dataFolderContents(config.dataDir, config.backups.dir);
    if (present.length > 0 && !force) {
      throw new RestoreRefusal(
        `The data folder ${config.dataDir} is not empty (${present.join(', ')}): run again with --force to move its contents aside (into ${config.dataDir}/before-restore-<time>/) and restore.`,
      );
    }
    const staging = path.join(config.dataDir, `.restoring-${randomBytes(4).toString('hex')}`);
    try {
      const rows = await loadTarball(backup, staging);
      const aside =
        present.length > 0
          ? await setAside(config.dataDir, present, (options.now ?? (() => new Date()))())
          : null;
      await rename(staging, path.join(config.dataDir, 'pglite'));
      const secrets = await restoreSecrets(backup.path, config.dataDir);
      return summary(options, aside, secrets, rows);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  } finally {
    await lock.release();
  }
}

/** Whether the database already has tables of ours (a restore would replace them). */
async function hasTables(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const result = await client.query<{ count: number }>(
      "select count(*)::int as count from information_schema.tables where table_schema = 'public'",
    );
    return (result.rows[0]?.count ?? 0) > 0;
  } finally {
    await client.end();
  }
}

async function countPostgres(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const run: RunSql = async (statement) => (await client.query<Record<string, unknown>>(statement)).rows;
    return await countRows(run);
  } finally {
    await client.end();
  }
}

/**
 * Restores a pg_dump into DATABASE_URL's database in one transaction (all or nothing), dropping the
 * objects the dump recreates. Every instance must be stopped first: they cannot be seen from here.
 */
async function restorePostgres(options: RestoreOptions): Promise<RestoreResult> {
  const { config, backup, force } = options;
  const url = config.databaseUrl as string;
  const oldSecrets = await readFile(path.join(config.dataDir, SECRETS_FILE), 'utf8').catch(() => null);
  if (!force && (await hasTables(url))) {
    throw new RestoreRefusal(
      'The database DATABASE_URL names already has tables: stop every instance, then run again with --force to replace them with the backup.',
    );
  }
  await runPgTool(
    'pg_restore',
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      '--exit-on-error',
      path.join(backup.path, backup.manifest.databaseFile),
    ],
    url,
  );
  // secrets.json lives in DATA_DIR on PostgreSQL too (when the environment does not set both).
  const aside =
    backup.manifest.secretsFile && oldSecrets !== null
      ? await setAside(config.dataDir, [SECRETS_FILE], (options.now ?? (() => new Date()))())
      : null;
  const secrets = await restoreSecrets(backup.path, config.dataDir);
  return summary(options, aside, secrets, await countPostgres(url));
}

/** Restores `backup` into the configured database (see RestoreOptions); throws RestoreRefusal or DataDirLockedError. */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  checkKind(options.config, options.backup);
  return options.config.databaseUrl ? restorePostgres(options) : restoreEmbedded(options);
}
