import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { openPglite } from '../../../server/db/client.ts';
import { acquirePidLock } from '../../../server/db/pid-lock.ts';
import { createAppMetaRepository } from '../../../server/repositories/app-meta.ts';
import { loadSecrets } from '../../../server/secrets.ts';
import { countRows } from '../../../server/services/backups/table-counts.ts';
import { VERSION } from '../../../server/version.ts';
import { HINT, IN_PROCESS, runAdmin as run } from '../helpers/admin-cli.ts';
import { startServerProcess, waitUntilListening } from '../helpers/server-process.ts';
import { runSqlOn, SEEDED_TABLES, seedEveryFamily } from '../helpers/seeded-families.ts';
import { migratedDataDir } from '../helpers/migrated-data-dir.ts';

/** A data folder with generated secrets and a database holding rows in every table family. */
async function seededDataDir(): Promise<{ dataDir: string; rows: Record<string, number> }> {
  const dataDir = await migratedDataDir('ct-backup-cli-');
  const { tokenKey } = await loadSecrets(loadConfig({ DATA_DIR: dataDir }));
  const database = await openPglite(dataDir);
  try {
    await database.migrate();
    await seedEveryFamily(database.db, tokenKey);
    return { dataDir, rows: await countRows(runSqlOn(database.db)) };
  } finally {
    await database.close();
  }
}

async function rowsIn(dataDir: string): Promise<Record<string, number>> {
  const database = await openPglite(dataDir);
  try {
    return await countRows(runSqlOn(database.db));
  } finally {
    await database.close();
  }
}

test(
  'bad arguments are one line and exit 2; a missing backup is one line and exit 1',
  IN_PROCESS,
  async () => {
    const dataDir = path.join(tmpdir(), 'ct-backup-cli-unused');
    const usageErrors: [string[], string][] = [
      [['restore'], 'restore needs <backup>.'],
      [['restore', 'a', 'b'], 'restore takes <backup>; unexpected: b.'],
      [['backup', 'now'], 'backup takes no arguments; unexpected: now.'],
      [['backup', '--force'], 'backup does not take --force.'],
      [['backups', '--force'], 'backups does not take --force.'],
      [['restore', 'latest', '--keep'], 'Unknown option --keep.'],
    ];
    for (const [args, problem] of usageErrors) {
      expect(await run(dataDir, args), args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: `${problem} ${HINT}`,
      });
    }
    const help = await run(dataDir, ['restore', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: npm run admin -- restore <backup> \[--force\] \[--json\]\n/);

    const empty = await mkdtemp(path.join(tmpdir(), 'ct-backup-cli-empty-'));
    expect(await run(empty, ['restore', 'nowhere'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No backup at nowhere: give a backup folder, a name from npm run admin -- backups, or latest.',
    });
    expect(await run(empty, ['restore', 'latest'])).toMatchObject({
      code: 1,
      stderr: `No backups in ${empty}/backups.`,
    });
    expect(await run(empty, ['backup'])).toMatchObject({
      code: 1,
      stderr: `No embedded database in ${empty}: nothing to back up.`,
    });
    expect(await run(empty, ['backups'])).toEqual({
      code: 0,
      stdout: `No backups in ${empty}/backups.`,
      stderr: '',
    });
  },
);

test(
  'backup, backups and restore with no server running; rotation keeps BACKUP_KEEP; --force sets the old folder aside',
  IN_PROCESS,
  async () => {
    const { dataDir, rows } = await seededDataDir();
    const keep = { BACKUP_KEEP: '2' };
    for (let i = 0; i < 3; i++) {
      const backup = await run(dataDir, ['backup'], keep);
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(
        /^Backup written: \S+backup-\S+Z \(\d+(\.\d)? [kM]B: embedded database \+ secrets\.json\), taken with the database to itself\./,
      );
      // secrets.json is generated here: it is in the backup, and the operator is told to keep it private.
      expect(backup.stderr).toBe(
        'Warning: secrets.json is in this backup: it decrypts the stored Threads tokens, so keep the backup as private as the data folder.',
      );
      if (i === 2)
        expect(backup.stdout).toMatch(/\nRemoved 1 older backup\(s\) to keep BACKUP_KEEP: backup-\S+\.$/);
    }
    const listed = await run(dataDir, ['backups', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const backups = JSON.parse(listed.stdout) as {
      name: string;
      kind: string;
      takenBy: string;
      version: string;
    }[];
    expect(backups).toHaveLength(2);
    expect(backups[0]).toMatchObject({ kind: 'pglite', takenBy: 'cli', version: VERSION, secretsFile: true });
    expect((backups[0]?.name ?? '') > (backups[1]?.name ?? '')).toBe(true);
    const table = await run(dataDir, ['backups']);
    expect(table.stdout.split('\n').slice(0, 2)).toEqual([
      `Backups in ${dataDir}/backups, newest first:`,
      expect.stringMatching(/^NAME +TAKEN \(UTC\) +DATABASE +SIZE +SECRETS +BY$/) as unknown,
    ]);

    // A fresh data folder: the newest backup, named, from the first folder's backups.
    const fresh = await mkdtemp(path.join(tmpdir(), 'ct-backup-cli-fresh-'));
    const from = { BACKUP_DIR: path.join(dataDir, 'backups') };
    const restored = await run(fresh, ['restore', backups[0]?.name ?? ''], from);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    expect(restored.stdout).toContain(`Restored ${backups[0]?.name} (taken `);
    expect(restored.stdout).toContain(`secrets.json restored into ${fresh}.`);
    expect(await rowsIn(fresh)).toEqual(rows);
    for (const table of SEEDED_TABLES) expect(rows[table], table).toBeGreaterThan(0);

    const refused = await run(fresh, ['restore', 'latest'], from);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toBe(
      `The data folder ${fresh} is not empty (pglite, secrets.json): run again with --force to move its contents aside (into ${fresh}/before-restore-<time>/) and restore.`,
    );
    const forced = await run(fresh, ['restore', 'latest', '--force', '--json'], from);
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(forced.stdout) as { setAside: string; rows: Record<string, number> };
    expect(result.rows).toEqual(rows);
    expect(path.dirname(result.setAside)).toBe(fresh);
    expect((await readdir(result.setAside)).sort()).toEqual(['pglite', 'secrets.json']);
    expect(await rowsIn(fresh)).toEqual(rows);
  },
);

test(
  'while a server runs, backup goes through it and restore is refused; the backup restores elsewhere',
  IN_PROCESS,
  async () => {
    const { dataDir, rows } = await seededDataDir();
    // This test process stands in for a server too old to answer on the control socket (the CLI,
    // run in it too, finds the lock held all the same).
    const lock = await acquirePidLock(dataDir);
    try {
      const unanswered = await run(dataDir, ['backup']);
      expect(unanswered).toMatchObject({ code: 1, stdout: '' });
      expect(unanswered.stderr).toMatch(
        /^The running server does not answer on \S+control\.sock \(ENOENT\): stop it/,
      );
    } finally {
      await lock.release();
    }
    // No server: nothing to ask, and the next start publishes anyway.
    const idle = await run(dataDir, ['publish']);
    expect(idle).toMatchObject({ code: 1, stdout: '' });
    expect(idle.stderr).toMatch(
      /^No server runs on \S+: the server exports the catalogue and builds the site when it starts\.$/,
    );

    const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
    try {
      await waitUntilListening(server);
      const backup = await run(dataDir, ['backup', '--json']);
      expect(backup).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(backup.stdout)).toMatchObject({
        kind: 'pglite',
        takenBy: 'server',
        secretsFile: true,
      });
      const refused = await run(dataDir, ['restore', 'latest', '--force']);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toMatch(
        /^Cannot restore now: Another Curated Threads process \(pid \d+\) is using the data folder /,
      );
      expect(refused.stderr.split('\n')).toHaveLength(1);
      // The running server exports and publishes now, and answers once it has.
      expect(await run(dataDir, ['publish', '--json'])).toEqual({
        code: 0,
        stdout: JSON.stringify({ published: true }, null, 2),
        stderr: '',
      });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }

    const fresh = await mkdtemp(path.join(tmpdir(), 'ct-backup-cli-server-'));
    const restored = await run(fresh, ['restore', 'latest'], { BACKUP_DIR: path.join(dataDir, 'backups') });
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    const after = await rowsIn(fresh);
    // Every seeded row is there; the running server added its own (the version it started, its schedules).
    for (const [table, count] of Object.entries(rows))
      expect(after[table], table).toBeGreaterThanOrEqual(count);
    const database = await openPglite(fresh);
    try {
      expect(await createAppMetaRepository(database.db).get('last_started_version')).toBe(VERSION);
    } finally {
      await database.close();
    }
  },
);
