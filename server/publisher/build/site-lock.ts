import { randomBytes } from 'node:crypto';
import { link, mkdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  isAlive,
  ownerLine,
  readOwner,
  removeStaleLock,
  sameOwner,
  thisProcess,
  type Owner,
} from '../../db/process-owner.ts';

/**
 * The lock of a site folder (decision 064): `<SITE_DIR>.lock`, beside it like the builds moved into
 * place, so servers of two checkouts (a blue/green release) sharing one SITE_DIR see the same lock.
 * Whoever writes into SITE_DIR (a build, a render, their swaps, the removal of leftovers) holds it,
 * so does whoever reads it whole: two servers sharing the folder take turns instead of failing.
 */
export function siteLockFile(siteDir: string): string {
  return `${path.resolve(siteDir)}.lock`;
}

/** How often a holder marks its lock as live: only the mark tells a process on another machine. */
const HEARTBEAT_MS = 10_000;
/** A lock another machine holds is its dead holder's when not marked for this long. */
export const FOREIGN_STALE_MS = 60_000;
/** How often a waiter looks again (a build takes seconds to minutes). */
const POLL_MS = 200;

/**
 * Whether the lock's holder provably still runs: on this machine its pid with the same start time
 * (a recycled pid is someone else); on another, whose pids mean nothing here, a recent mark.
 */
async function holderIsLive(file: string, holder: Owner | null): Promise<boolean> {
  if (!holder) return false;
  if (holder.host !== undefined && holder.host !== hostname()) {
    const age = await stat(file).then(
      (s) => Date.now() - s.mtimeMs,
      () => Number.POSITIVE_INFINITY,
    );
    return age < FOREIGN_STALE_MS;
  }
  return isAlive(holder);
}

/** Creates the lock with its content in one step (a link), so nobody ever reads it empty. */
async function tryLock(file: string, me: Owner): Promise<boolean> {
  const draft = `${file}.${randomBytes(6).toString('hex')}.draft`;
  await writeFile(draft, ownerLine(me));
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await unlink(draft).catch(() => {});
  }
}

export interface SiteLockOptions {
  /** Told once per holder when the lock is held by a live process (another flow of this one included). */
  onWait?: ((holder: Owner) => void) | undefined;
}

/**
 * Runs `work` holding SITE_DIR's lock: waits while a live process holds it, takes over the lock of
 * one that is gone. Not reentrant: `work` must not ask for the same lock again.
 */
export async function withSiteLock<T>(
  siteDir: string,
  work: () => Promise<T>,
  { onWait }: SiteLockOptions = {},
): Promise<T> {
  const file = siteLockFile(siteDir);
  await mkdir(path.dirname(file), { recursive: true });
  const me = await thisProcess(true);
  let told: Owner | null = null;
  while (!(await tryLock(file, me))) {
    const holder = await readOwner(file);
    if (!(await holderIsLive(file, holder))) {
      await removeStaleLock(file, holder);
      continue;
    }
    if (holder && !sameOwner(holder, told)) onWait?.((told = holder));
    await sleep(POLL_MS);
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
    if (sameOwner(await readOwner(file), me)) await unlink(file).catch(() => {});
  }
}
