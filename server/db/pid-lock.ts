import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

/** Raised when another live process holds the data folder. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface PidLock {
  file: string;
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `dataDir/server.pid` for this process. PGlite has no lock of its own and a second process
 * on the same folder corrupts it, so a live holder makes this throw; a stale file (dead pid) is taken over.
 */
export async function acquirePidLock(dataDir: string): Promise<PidLock> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'server.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return {
        file,
        async release() {
          const owner = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
          if (owner === process.pid) await unlink(file).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(
          `Another Curated Threads process (pid ${owner}) is using the data folder ${dataDir}. Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      await unlink(file).catch(() => {});
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dataDir}: ${file} keeps reappearing.`);
}
