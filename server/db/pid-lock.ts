import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isAlive, ownerLine, readOwner, removeStaleLock, sameOwner, thisProcess } from './process-owner.ts';

/** Raised when another live process holds the data folder. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface PidLock {
  file: string;
  release(): Promise<void>;
}

const MAX_ATTEMPTS = 50;

/**
 * Takes `dataDir/server.pid` for this process. PGlite has no lock of its own and a second process
 * on the same folder corrupts it, so a live holder (this process included) makes this throw; a lock
 * left by a dead process is taken over.
 */
export async function acquirePidLock(dataDir: string): Promise<PidLock> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'server.pid');
  const me = await thisProcess(false);
  // The lock appears with its content in one step (link), so nobody ever reads an empty lock file.
  const draft = `${file}.${randomBytes(6).toString('hex')}.draft`;
  await writeFile(draft, ownerLine(me));
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        await link(draft, file);
        return {
          file,
          async release() {
            if (sameOwner(await readOwner(file), me)) await unlink(file).catch(() => {});
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await readOwner(file);
      if (owner && (await isAlive(owner))) {
        const who = owner.pid === process.pid ? 'this process' : `pid ${owner.pid}`;
        throw new DataDirLockedError(
          `Another Curated Threads process (${who}) is using the data folder ${dataDir}. Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      await removeStaleLock(file, owner);
    }
    throw new DataDirLockedError(`Could not lock the data folder ${dataDir}: ${file} keeps changing hands.`);
  } finally {
    await unlink(draft).catch(() => {});
  }
}
