/**
 * The backup folder (BACKUP_DIR, by default DATA_DIR/backups): one folder per backup, named by its
 * UTC time so names sort oldest first, holding the database file, `secrets.json` when there is one,
 * and `backup.json` describing them (decision 050).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What `backup.json` says about a backup. */
export interface BackupManifest {
  format: 1;
  /** The product version that took it. */
  version: string;
  kind: 'pglite' | 'postgres';
  takenAt: string;
  /** Who asked: the schedule, the admin CLI (with the database to itself), or the CLI through the running server. */
  takenBy: 'schedule' | 'cli' | 'server';
  /** The database file in the backup folder: PGlite's data folder as a tarball, or pg_dump's custom format. */
  databaseFile: string;
  databaseBytes: number;
  /** Whether `secrets.json` is in the backup (copied from DATA_DIR). */
  secretsFile: boolean;
  /** The secrets the server read from the environment: they are NOT in the backup. */
  secretsFromEnvironment: string[];
  /** A one-way fingerprint of the token key in use, so a restore can tell whether the key it has matches. */
  tokenKeyFingerprint: string;
}

export interface Backup {
  name: string;
  path: string;
  manifest: BackupManifest;
}

export const MANIFEST_FILE = 'backup.json';
const NAME = /^backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/;

/** `backup-2026-11-28T15-08-00-123Z`: the UTC time, with no colon (some file systems refuse it). */
export function backupName(at: Date): string {
  return `backup-${at.toISOString().replace(/:/g, '-').replace('.', '-')}`;
}

/** Reads a backup's `backup.json`; null when the folder is not a complete backup of ours. */
export async function readBackup(folder: string): Promise<Backup | null> {
  const text = await readFile(path.join(folder, MANIFEST_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    return null;
  }
  if (manifest.format !== 1 || (manifest.kind !== 'pglite' && manifest.kind !== 'postgres')) return null;
  return { name: path.basename(folder), path: folder, manifest };
}

/** Every complete backup in `dir`, newest first; a missing folder has none. */
export async function listBackups(dir: string): Promise<Backup[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const backups = await Promise.all(
    names.filter((name) => NAME.test(name)).map((name) => readBackup(path.join(dir, name))),
  );
  return backups.filter((backup) => backup !== null).sort((a, b) => b.name.localeCompare(a.name));
}

async function fsyncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a backup atomically: `fill` writes its files into a hidden staging folder, then
 * `backup.json` is written and the folder renamed into place, so a listed backup is always whole.
 * A failed backup leaves nothing behind. The folder is private (0700): it holds the secrets.
 */
export async function writeBackup(
  dir: string,
  at: Date,
  fill: (staging: string) => Promise<BackupManifest>,
): Promise<Backup> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const name = backupName(at);
  const staging = path.join(dir, `.${name}.${randomBytes(4).toString('hex')}.partial`);
  await mkdir(staging, { mode: 0o700 });
  try {
    const manifest = await fill(staging);
    const manifestFile = path.join(staging, MANIFEST_FILE);
    await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    // The files must be on disk before the name that says the backup is whole.
    for (const file of await readdir(staging)) await fsyncPath(path.join(staging, file));
    const final = path.join(dir, name);
    await rename(staging, final);
    await fsyncPath(dir).catch(() => {});
    return { name, path: final, manifest };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** A staging folder older than this was left by a process that died while backing up. */
const ABANDONED_MS = 24 * 60 * 60 * 1000;

/**
 * Removes all but the `keep` newest backups in `dir`, and staging folders abandoned by a crash;
 * returns the names of the backups removed.
 */
export async function rotateBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(Math.max(1, keep));
  for (const backup of old) await rm(backup.path, { recursive: true, force: true });
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.partial')) continue;
    const folder = path.join(dir, name);
    const age = await stat(folder).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > ABANDONED_MS) await rm(folder, { recursive: true, force: true });
  }
  return old.map((backup) => backup.name);
}

/** The total size of a backup's files, in bytes. */
export async function backupBytes(backup: Backup): Promise<number> {
  const files = await readdir(backup.path);
  const sizes = await Promise.all(
    files.map((file) => stat(path.join(backup.path, file)).then((s) => s.size)),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
