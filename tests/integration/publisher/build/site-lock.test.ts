import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { removeLeftoverBuilds } from '../../../../server/publisher/build/build-site.ts';
import {
  FOREIGN_STALE_MS,
  siteLockFile,
  withSiteLock,
} from '../../../../server/publisher/build/site-lock.ts';
import { stagingDirFor, stagingFolderFor } from '../../../../server/publisher/build/staging.ts';

// Decision 064: servers sharing SITE_DIR take turns under `<SITE_DIR>.lock`; what killed builds left
// is removed only holding it, so a live builder's folders are never taken for leftovers.
const HOLDER = path.resolve(import.meta.dirname, '../../helpers/hold-site-lock.ts');
// A pid far above any real one on this machine: the lock's owner is gone.
const DEAD_PID = 2147483646;

let work: string;
let siteDir: string;

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ct-site-lock-'));
  siteDir = path.join(work, 'site');
});

afterEach(async () => {
  await rm(stagingFolderFor(siteDir), { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** A killed build's folders: staged in the project and moved beside SITE_DIR. */
async function killedBuild(suffix: string): Promise<string[]> {
  const folders = [stagingDirFor(siteDir, suffix), `${siteDir}.building-${suffix}`];
  for (const folder of folders) await mkdir(folder, { recursive: true });
  return folders;
}

test("a dead owner's lock is taken over and its build's folders removed", async () => {
  await writeFile(siteLockFile(siteDir), `${DEAD_PID} 1 ${hostname()}\n`);
  const left = await killedBuild('0a1b2c3d');
  const waited: number[] = [];
  const removed = await removeLeftoverBuilds(siteDir, { onWait: (holder) => waited.push(holder.pid) });
  expect(removed.toSorted()).toEqual(left.toSorted());
  expect(waited).toEqual([]);
  for (const folder of left) expect(existsSync(folder), folder).toBe(false);
  // Let go of after the cleanup: nothing of the lock stays beside the site.
  expect(existsSync(siteLockFile(siteDir))).toBe(false);
});

test("a live owner's build is kept while it holds the lock; a dead one's goes once it is through", async () => {
  const dead = await killedBuild('0a1b2c3d');
  const child = spawn(process.execPath, [HOLDER, siteDir, '89abcdef']);
  const exited = once(child, 'exit');
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (!output.includes('holding')) await once(child.stdout, 'data');
  const live = [stagingDirFor(siteDir, '89abcdef'), `${siteDir}.building-89abcdef`];

  let told: (pid: number) => void = () => {};
  const waiting = new Promise<number>((resolve) => (told = resolve));
  const cleanup = removeLeftoverBuilds(siteDir, { onWait: (holder) => told(holder.pid) });
  expect(await waiting).toBe(child.pid);
  // The cleanup waits on the live holder: its build and the dead one's are both still there.
  for (const folder of [...live, ...dead]) expect(existsSync(folder), folder).toBe(true);

  child.stdin.end();
  const removed = await cleanup;
  expect(await exited).toEqual([0, null]);
  expect(output).toContain('released');
  // The live builder removed its own folders; the cleanup removed only the dead one's.
  expect(removed.toSorted()).toEqual(dead.toSorted());
  for (const folder of [...live, ...dead]) expect(existsSync(folder), folder).toBe(false);
});

test('a recycled pid, or another machine that stopped marking its lock, no longer holds it', async () => {
  // The parent process is alive, but it started at another moment than this lock records.
  await writeFile(siteLockFile(siteDir), `${process.ppid} 1 ${hostname()}\n`);
  const waited: number[] = [];
  const onWait = (holder: { pid: number }) => waited.push(holder.pid);
  await withSiteLock(siteDir, async () => {}, { onWait });

  // Another machine's pids mean nothing here: only how long ago it marked the lock tells.
  const lock = siteLockFile(siteDir);
  await writeFile(lock, `${DEAD_PID} 1 another-host\n`);
  const old = new Date(Date.now() - 2 * FOREIGN_STALE_MS);
  await utimes(lock, old, old);
  await withSiteLock(siteDir, async () => {}, { onWait });
  expect(waited).toEqual([]);
  expect(existsSync(lock)).toBe(false);
});

test('a lock another machine marked lately is waited for, whatever its pid means here', async () => {
  const lock = siteLockFile(siteDir);
  await writeFile(lock, `${DEAD_PID} 1 another-host\n`);
  let told: (host: string | undefined) => void = () => {};
  const waiting = new Promise<string | undefined>((resolve) => (told = resolve));
  let ran = false;
  const taken = withSiteLock(siteDir, async () => void (ran = true), {
    onWait: (holder) => told(holder.host),
  });
  expect(await waiting).toBe('another-host');
  expect(ran).toBe(false);
  // That machine lets go.
  await rm(lock);
  await taken;
  expect(ran).toBe(true);
});

test('two flows of one process take turns', async () => {
  const steps: string[] = [];
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let told: () => void = () => {};
  const waiting = new Promise<void>((resolve) => (told = resolve));
  let entered: () => void = () => {};
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const first = withSiteLock(siteDir, async () => {
    steps.push('first in');
    entered();
    await gate;
    steps.push('first out');
  });
  // Both start with file-system calls that may finish in either order: the second asks once the
  // first holds the lock, or it could take the lock first and the first would wait for nothing.
  await inside;
  const second = withSiteLock(siteDir, async () => void steps.push('second in'), {
    onWait: (holder) => {
      expect(holder.pid).toBe(process.pid);
      told();
    },
  });
  await waiting;
  open();
  await Promise.all([first, second]);
  expect(steps).toEqual(['first in', 'first out', 'second in']);
});
