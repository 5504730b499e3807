import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { acquirePidLock, DataDirLockedError } from '../../../server/db/pid-lock.ts';

const HOLDER = path.resolve(import.meta.dirname, '../helpers/hold-pid-lock.ts');
// A pid far above any real one on this machine: the lock's owner is gone.
const DEAD_PID = '2147483646';

async function race(dataDir: string, contenders: number): Promise<string[]> {
  const startAt = String(Date.now() + 1500);
  const children = Array.from({ length: contenders }, () =>
    spawn(process.execPath, [HOLDER, dataDir, startAt]),
  );
  const outcomes = await Promise.all(
    children.map(async (child) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      // The winner holds the lock until every contender has answered.
      while (!output.includes('\n') && child.exitCode === null)
        await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
      return output.trim();
    }),
  );
  for (const child of children) child.stdin.end();
  await Promise.all(children.filter((child) => child.exitCode === null).map((child) => once(child, 'exit')));
  return outcomes;
}

describe('acquirePidLock', () => {
  test('processes taking over a stale lock at the same moment: exactly one wins, every time', async () => {
    for (let round = 0; round < 6; round++) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-race-'));
      await writeFile(path.join(dataDir, 'server.pid'), `${DEAD_PID}\n`);
      const outcomes = await race(dataDir, 3);
      expect(outcomes.sort(), `round ${round}`).toEqual(['acquired', 'locked', 'locked']);
      // Nothing is left behind: no drafts, no takeover guard, no lock after release.
      expect(await readdir(dataDir)).toEqual([]);
    }
  });

  test('takes over a lock left by a process that no longer exists, and releases it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-lock-'));
    await writeFile(path.join(dataDir, 'server.pid'), `${DEAD_PID}\n`);
    const lock = await acquirePidLock(dataDir);
    await lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  test('refuses while a live process holds it, this process included', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-lock-'));
    await writeFile(path.join(dataDir, 'server.pid'), `${process.ppid}\n`);
    await expect(acquirePidLock(dataDir)).rejects.toThrow(`(pid ${process.ppid}) is using the data folder`);

    const own = await mkdtemp(path.join(tmpdir(), 'ct-lock-'));
    const lock = await acquirePidLock(own);
    await expect(acquirePidLock(own)).rejects.toBeInstanceOf(DataDirLockedError);
    await lock.release();
  });

  test('a recycled pid (same number, another process start) does not keep the folder locked', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-lock-'));
    // The parent process is alive, but it started at another moment than this lock records.
    await writeFile(path.join(dataDir, 'server.pid'), `${process.ppid} 1\n`);
    const lock = await acquirePidLock(dataDir);
    await lock.release();
  });
});
