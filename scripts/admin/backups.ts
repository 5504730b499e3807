/**
 * `backup`, `backups` and `restore` (decision 050). On the embedded database a running server holds
 * the data folder, so `backup` asks it through the folder's control socket; with no server running
 * the CLI takes the lock and dumps itself. `restore` needs every server stopped. On PostgreSQL
 * both run pg_dump / pg_restore. The backup's secrets.json travels with it.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type Config } from '../../server/config.ts';
import { openPglite } from '../../server/db/client.ts';
import { acquirePidLock, DataDirLockedError } from '../../server/db/pid-lock.ts';
import { clearExportState } from '../../server/publisher/export/export-state.ts';
import { loadSecrets } from '../../server/secrets.ts';
import { backUp, type BackupResult } from '../../server/services/backups/back-up.ts';
import { listBackups, readBackup, type Backup } from '../../server/services/backups/backup-folder.ts';
import { ControlSocketUnavailable, requestBackup } from '../../server/services/backups/control-socket.ts';
import { PgToolError } from '../../server/services/backups/pg-tools.ts';
import { restoreBackup, RestoreRefusal, type RestoreResult } from '../../server/services/backups/restore.ts';
import { printJson, printTable, Refusal, type AdminIo, type Command } from './cli.ts';

/** 4.6 MB, 812 kB, 90 B. */
function size(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} B`;
}

const KIND = { pglite: 'embedded database', postgres: 'PostgreSQL (pg_dump)' } as const;

/** The errors a backup or restore explains in one line (exit 1), rather than as a stack. */
function explained(error: unknown): never {
  if (error instanceof RestoreRefusal || error instanceof PgToolError) throw new Refusal(error.message);
  if (error instanceof ControlSocketUnavailable) throw new Refusal(error.message);
  if (error instanceof DataDirLockedError) throw new Refusal(`Cannot restore now: ${error.message}`);
  throw error;
}

/** The CLI's own backup, with the embedded database's lock held (no server runs). */
async function backUpHere(config: Config): Promise<BackupResult> {
  const { tokenKey } = await loadSecrets(config);
  if (config.databaseUrl) return backUp({ config, database: { kind: 'postgres' }, tokenKey, takenBy: 'cli' });
  const lock = await acquirePidLock(config.dataDir);
  try {
    const exists = await access(path.join(config.dataDir, 'pglite', 'PG_VERSION')).then(
      () => true,
      () => false,
    );
    if (!exists) throw new Refusal(`No embedded database in ${config.dataDir}: nothing to back up.`);
    const database = await openPglite(config.dataDir);
    try {
      return await backUp({ config, database, tokenKey, takenBy: 'cli' });
    } finally {
      await database.close();
    }
  } finally {
    await lock.release();
  }
}

async function backupCommand(io: AdminIo, json: boolean): Promise<void> {
  const config = loadConfig(io.env);
  let result: BackupResult;
  try {
    result = await backUpHere(config);
  } catch (error) {
    // A running server holds the folder: only it can read the database consistently.
    if (!(error instanceof DataDirLockedError)) explained(error);
    result = await requestBackup(config.dataDir).catch(explained);
  }
  if (json) {
    printJson(io, result);
    return;
  }
  const contents = [KIND[result.kind], ...(result.secretsFile ? ['secrets.json'] : [])].join(' + ');
  const by = result.takenBy === 'server' ? 'by the running server' : 'with the database to itself';
  io.stdout(`Backup written: ${result.path} (${size(result.bytes)}: ${contents}), taken ${by}.`);
  if (result.removed.length > 0) {
    io.stdout(
      `Removed ${result.removed.length} older backup(s) to keep BACKUP_KEEP: ${result.removed.join(', ')}.`,
    );
  }
  for (const warning of result.warnings) io.stderr(`Warning: ${warning}`);
}

async function listCommand(io: AdminIo, json: boolean): Promise<void> {
  const config = loadConfig(io.env);
  const backups = await listBackups(config.backups.dir);
  if (json) {
    printJson(
      io,
      backups.map(({ name, path: folder, manifest }) => ({ name, path: folder, ...manifest })),
    );
    return;
  }
  if (backups.length === 0) {
    io.stdout(`No backups in ${config.backups.dir}.`);
    return;
  }
  io.stdout(`Backups in ${config.backups.dir}, newest first:`);
  printTable(
    io,
    ['NAME', 'TAKEN (UTC)', 'DATABASE', 'SIZE', 'SECRETS', 'BY'],
    backups.map(({ name, manifest }) => [
      name,
      manifest.takenAt.replace('T', ' ').replace(/\.\d+Z$/, ''),
      KIND[manifest.kind],
      size(manifest.databaseBytes),
      manifest.secretsFile ? 'secrets.json' : `not in it: ${manifest.secretsFromEnvironment.join(', ')}`,
      manifest.takenBy,
    ]),
  );
}

/** A backup folder's path, a name in BACKUP_DIR, or `latest`. */
async function findBackup(config: Config, target: string): Promise<Backup> {
  if (target === 'latest') {
    const [latest] = await listBackups(config.backups.dir);
    if (!latest) throw new Refusal(`No backups in ${config.backups.dir}.`);
    return latest;
  }
  const found =
    (await readBackup(path.resolve(target))) ?? (await readBackup(path.join(config.backups.dir, target)));
  if (!found) {
    throw new Refusal(
      `No backup at ${target}: give a backup folder, a name from npm run admin -- backups, or latest.`,
    );
  }
  return found;
}

function printRestore(io: AdminIo, config: Config, result: RestoreResult): void {
  const counted = Object.entries(result.rows).filter(([, count]) => count > 0);
  const total = counted.reduce((sum, [, count]) => sum + count, 0);
  const where = result.kind === 'pglite' ? config.dataDir : 'the database DATABASE_URL names';
  io.stdout(`Restored ${result.name} (taken ${result.takenAt}, ${KIND[result.kind]}) into ${where}.`);
  const listed = counted.map(([table, count]) => `${table} ${count}`).join(', ');
  io.stdout(`Rows: ${listed || 'none'} (${total} in all).`);
  if (result.setAside) io.stdout(`What was there before is in ${result.setAside} (nothing was deleted).`);
  io.stdout(
    result.secretsRestored
      ? `secrets.json restored into ${config.dataDir}.`
      : 'The backup has no secrets.json (the secrets came from the environment).',
  );
  for (const warning of result.warnings) io.stderr(`Warning: ${warning}`);
  io.stdout('Start the server: it brings the database up to this version and exports the catalogue again.');
}

async function restoreCommand(io: AdminIo, target: string, json: boolean, force: boolean): Promise<void> {
  const config = loadConfig(io.env);
  const backup = await findBackup(config, target);
  const result = await restoreBackup({ config, backup, force }).catch(explained);
  // The exported catalogue describes the old database: the next export must be a full one.
  await clearExportState(config.catalogueDir);
  if (json) printJson(io, { ...result, dataDir: config.dataDir });
  else printRestore(io, config, result);
}

/** The commands about backups. */
export const backupCommands: Command[] = [
  {
    name: 'backup',
    params: [],
    summary:
      'backs up the database and secrets.json into BACKUP_DIR now (through the running server, if one runs), keeping the BACKUP_KEEP newest',
    json: true,
    run: ({ json, io }) => backupCommand(io, json),
  },
  {
    name: 'backups',
    params: [],
    summary: 'lists the backups in BACKUP_DIR, newest first',
    json: true,
    run: ({ json, io }) => listCommand(io, json),
  },
  {
    name: 'restore',
    params: ['<backup>'],
    summary:
      'restores a backup (a folder, a name from backups, or latest) with its secrets.json; every server must be stopped; --force moves what is there aside first',
    json: true,
    force: true,
    run: ({ args: [target], json, force, io }) => restoreCommand(io, target ?? '', json, force),
  },
];
