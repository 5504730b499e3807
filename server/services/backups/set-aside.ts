/**
 * What a restore replaces in DATA_DIR, and where the old contents go: into a folder beside them,
 * never deleted (decision 050). Backups, the lock and earlier set-aside folders stay where they are.
 */
import { mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';

export const SET_ASIDE_PREFIX = 'before-restore-';

/** Entries of DATA_DIR a restore leaves alone: the lock, the control socket's folder, staging folders. */
function kept(name: string): boolean {
  return (
    name === 'server.pid' ||
    name.startsWith('server.pid.') ||
    name === 'run' ||
    name.startsWith('.restoring-') ||
    name.startsWith(SET_ASIDE_PREFIX)
  );
}

/**
 * The entries of `dataDir` that hold data (the database, secrets.json, the exported catalogue, the
 * built site ...), leaving out the backup folder when it lies inside. Empty for a fresh folder.
 */
export async function dataFolderContents(dataDir: string, backupDir: string): Promise<string[]> {
  const names = await readdir(dataDir).catch(() => [] as string[]);
  return names
    .filter((name) => !kept(name))
    .filter((name) => {
      const full = path.join(dataDir, name);
      // The backup folder, or a folder that contains it, stays (the backup being restored may be in it).
      return full !== backupDir && !backupDir.startsWith(full + path.sep);
    })
    .sort();
}

/** Moves `names` from `dataDir` into `dataDir/before-restore-<UTC time>/`; returns that folder. */
export async function setAside(dataDir: string, names: string[], at: Date): Promise<string> {
  const folder = path.join(dataDir, `${SET_ASIDE_PREFIX}${at.toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(folder, { mode: 0o700 });
  for (const name of names) await rename(path.join(dataDir, name), path.join(folder, name));
  return folder;
}
