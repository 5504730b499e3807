import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openPglite } from '../../../server/db/client.ts';
import { acquirePidLock } from '../../../server/db/pid-lock.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';
import { HINT, spawnAdmin, SPAWNING } from '../helpers/admin-cli.ts';
import { migratedDataDir } from '../helpers/migrated-data-dir.ts';

// The other admin CLI tests run it in the test's process (decision 073). These run `node
// scripts/admin.ts` as `npm run admin` does, for what only a process shows: its exit code, its two
// streams, a run that opens the database and then ends by itself, and a lock held by another process.

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
  'a process changes the database and exits 0; while another process holds the folder it exits 1',
  SPAWNING,
  async () => {
    const dataDir = await migratedDataDir('ct-admin-process-');
    const seed = await openPglite(dataDir);
    await seed.migrate();
    await createUsersRepository(seed.db).upsertOnSignIn('17841400000000001', 'Maren');
    await seed.close();

    expect(await spawnAdmin(dataDir, ['grant', '@maren'])).toEqual({
      code: 0,
      stdout: '@Maren is now an admin.',
      stderr: '',
    });
    const check = await openPglite(dataDir);
    try {
      const maren = await createUsersRepository(check.db).findByThreadsUserId('17841400000000001');
      expect(maren?.isAdmin).toBe(true);
    } finally {
      await check.close();
    }

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
