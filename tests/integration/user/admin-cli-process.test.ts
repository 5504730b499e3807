import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { acquirePidLock } from '../../../server/db/pid-lock.ts';
import { HINT, spawnAdmin, SPAWNING } from '../helpers/admin-cli.ts';

// The other admin CLI tests run it in the test's process (decision 073). These run `node
// scripts/admin.ts` as `npm run admin` does, for what only a process shows: its exit codes, its two
// streams, and the data folder's lock held by another process.

test(
  'a process prints help on stdout with exit 0, and a usage error on stderr with exit 2',
  SPAWNING,
  async () => {
    // Neither opens the database: the folder need not exist.
    const dataDir = path.join(tmpdir(), 'ct-admin-unused');
    const help = await spawnAdmin(dataDir, ['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: npm run admin -- <command>/);
    expect(await spawnAdmin(dataDir, ['promote'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Unknown command: promote. ${HINT}`,
    });
  },
);

test(
  'a process is refused with exit 1, one line on stderr, while another process holds the folder',
  SPAWNING,
  async () => {
    // The lock is taken before the database is opened: the folder needs none.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-admin-process-'));
    // This test process stands in for a running server holding the folder.
    const lock = await acquirePidLock(dataDir);
    try {
      expect(await spawnAdmin(dataDir, ['users'])).toEqual({
        code: 1,
        stdout: '',
        stderr: `Another Curated Threads process (pid ${process.pid}) is using the data folder ${dataDir}. Stop it first, or set DATA_DIR to another folder.`,
      });
    } finally {
      await lock.release();
    }
  },
);
