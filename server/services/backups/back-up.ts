/**
 * One backup of the database and its secrets into BACKUP_DIR, then the rotation that keeps the
 * BACKUP_KEEP newest (decision 050). The scheduled job, the running server (for the admin CLI) and
 * the CLI itself all come here.
 */
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { VERSION } from '../../version.ts';
import { backupBytes, rotateBackups, writeBackup, type BackupManifest } from './backup-folder.ts';
import {
  backupSecretsWarnings,
  copySecretsInto,
  secretsFromEnvironment,
  tokenKeyFingerprint,
} from './backup-secrets.ts';
import { runPgTool } from './pg-tools.ts';

export interface BackupResult {
  name: string;
  path: string;
  kind: BackupManifest['kind'];
  takenAt: string;
  takenBy: BackupManifest['takenBy'];
  bytes: number;
  secretsFile: boolean;
  /** Older backups removed to keep BACKUP_KEEP. */
  removed: string[];
  /** What the operator must know about the secrets (names of variables, never values). */
  warnings: string[];
}

export interface BackupDeps {
  config: Config;
  database: Pick<DatabaseHandle, 'kind' | 'snapshot'>;
  /** The token key in use (from the environment or secrets.json): only its fingerprint is kept. */
  tokenKey: Buffer;
  takenBy: BackupManifest['takenBy'];
  now?: () => Date;
}

/** The database into `folder`: PGlite's folder as a tarball, or pg_dump's custom format. */
async function dumpDatabase(deps: BackupDeps, folder: string): Promise<string> {
  const { config, database } = deps;
  if (database.kind === 'pglite') {
    if (!database.snapshot) throw new Error('this database handle cannot take a snapshot');
    const file = 'pglite.tar.gz';
    await writeFile(path.join(folder, file), await database.snapshot(), { mode: 0o600 });
    return file;
  }
  if (!config.databaseUrl) throw new Error('a PostgreSQL backup needs DATABASE_URL');
  const file = 'database.dump';
  // Custom format: compressed, and pg_restore can pick or reorder what it restores.
  await runPgTool(
    'pg_dump',
    ['--format=custom', '--no-owner', `--file=${path.join(folder, file)}`],
    config.databaseUrl,
  );
  return file;
}

/** Takes a backup now and rotates the folder; see BackupResult for what it reports. */
export async function backUp(deps: BackupDeps): Promise<BackupResult> {
  const { config } = deps;
  const at = (deps.now ?? (() => new Date()))();
  const fromEnvironment = secretsFromEnvironment(config);
  const backup = await writeBackup(config.backups.dir, at, async (folder) => {
    const databaseFile = await dumpDatabase(deps, folder);
    // Only what the server would read: secrets.json is unused when both secrets come from the environment.
    const secretsFile = fromEnvironment.length < 2 && (await copySecretsInto(config, folder));
    const databaseBytes = (await stat(path.join(folder, databaseFile))).size;
    return {
      format: 1,
      version: VERSION,
      kind: deps.database.kind,
      takenAt: at.toISOString(),
      takenBy: deps.takenBy,
      databaseFile,
      databaseBytes,
      secretsFile,
      secretsFromEnvironment: fromEnvironment,
      tokenKeyFingerprint: tokenKeyFingerprint(deps.tokenKey),
    };
  });
  const removed = await rotateBackups(config.backups.dir, config.backups.keep);
  return {
    name: backup.name,
    path: backup.path,
    kind: backup.manifest.kind,
    takenAt: backup.manifest.takenAt,
    takenBy: backup.manifest.takenBy,
    bytes: await backupBytes(backup),
    secretsFile: backup.manifest.secretsFile,
    removed,
    warnings: backupSecretsWarnings(fromEnvironment, backup.manifest.secretsFile),
  };
}
