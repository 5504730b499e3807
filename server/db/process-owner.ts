import { hostname } from 'node:os';
import { open, readFile, stat, unlink } from 'node:fs/promises';

/** Who holds a lock file: its line is `pid start [host]`. */
export interface Owner {
  pid: number;
  /** The process's start time (Linux /proc), so a recycled pid is not mistaken for the owner. */
  started: string | null;
  /** The machine (or container) it ran on: a pid means something only there. Absent in DATA_DIR's lock. */
  host?: string | undefined;
}

/** A takeover guard older than this belongs to a process that died while taking over. */
const STALE_GUARD_MS = 10_000;

export async function processStart(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); the command name in field 2 may itself contain spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** This process, as a lock records it; with `host` for a lock other machines may see. */
export async function thisProcess(withHost: boolean): Promise<Owner> {
  const owner: Owner = { pid: process.pid, started: await processStart(process.pid) };
  return withHost ? { ...owner, host: hostname() } : owner;
}

export const ownerLine = (owner: Owner) =>
  `${owner.pid} ${owner.started ?? ''}${owner.host ? ` ${owner.host}` : ''}\n`;

export async function readOwner(file: string): Promise<Owner | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  // A start time may be missing (no /proc): the line is then `pid  host`.
  const [pid, started, host] = text.replace(/\n$/, '').split(' ');
  const number = Number(pid);
  if (!Number.isInteger(number) || number <= 0) return null;
  return { pid: number, started: started || null, ...(host ? { host } : {}) };
}

/** Whether the process a lock names runs on this machine now (the same pid, started at the same moment). */
export async function isAlive(owner: Owner): Promise<boolean> {
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

export const sameOwner = (a: Owner | null, b: Owner | null) =>
  a?.pid === b?.pid && a?.started === b?.started && a?.host === b?.host;

/**
 * Removes a lock whose owner is gone, under a guard file so that two processes taking over at once
 * cannot both remove it (the second would delete the first's fresh lock). Returns when the caller
 * should try to create the lock again.
 */
export async function removeStaleLock(file: string, stale: Owner | null): Promise<void> {
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
