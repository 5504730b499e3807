import { link, mkdir, open, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Raised when another live process holds the data folder. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface PidLock {
  file: string;
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  /** The process's start time (Linux /proc), so a recycled pid is not mistaken for the owner. */
  started: string | null;
}

/** A takeover guard older than this belongs to a process that died while taking over. */
const STALE_GUARD_MS = 10_000;
const MAX_ATTEMPTS = 50;

async function processStart(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); the command name in field 2 may itself contain spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

async function readOwner(file: string): Promise<Owner | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const [pid, started] = text.trim().split(/\s+/);
  const number = Number(pid);
  return Number.isInteger(number) && number > 0 ? { pid: number, started: started ?? null } : null;
}

async function isAlive(owner: Owner): Promise<boolean> {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.started === null) return true;
  const started = await processStart(owner.pid);
  return started === null || started === owner.started;
}

const sameOwner = (a: Owner | null, b: Owner | null) => a?.pid === b?.pid && a?.started === b?.started;

/**
 * Removes a lock whose owner is dead, under a guard file so that two processes taking over at once
 * cannot both remove it (the second would delete the first's fresh lock). Returns when the caller
 * should try to create the lock again.
 */
async function removeStaleLock(file: string, stale: Owner | null): Promise<void> {
  const guard = `${file}.takeover`;
  let handle;
  try {
    handle = await open(guard, 'wx');
  } catch {
    const age = await stat(guard).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_GUARD_MS) await unlink(guard).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    return;
  }
  try {
    if (sameOwner(await readOwner(file), stale)) await unlink(file).catch(() => {});
  } finally {
    await handle.close();
    await unlink(guard).catch(() => {});
  }
}

/**
 * Takes `dataDir/server.pid` for this process. PGlite has no lock of its own and a second process
 * on the same folder corrupts it, so a live holder (this process included) makes this throw; a lock
 * left by a dead process is taken over.
 */
export async function acquirePidLock(dataDir: string): Promise<PidLock> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'server.pid');
  const me: Owner = { pid: process.pid, started: await processStart(process.pid) };
  // The lock appears with its content in one step (link), so nobody ever reads an empty lock file.
  const draft = `${file}.${randomBytes(6).toString('hex')}.draft`;
  await writeFile(draft, `${me.pid} ${me.started ?? ''}\n`);
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
