import { chmod, mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../../../server/config.ts';
import { backUp } from '../../../../../server/services/backups/back-up.ts';
import {
  backupName,
  listBackups,
  writeBackup,
} from '../../../../../server/services/backups/backup-folder.ts';
import {
  backupSecretsWarnings,
  restoreSecretsWarnings,
  tokenKeyFingerprint,
} from '../../../../../server/services/backups/backup-secrets.ts';
import { findPgTool, splitPassword } from '../../../../../server/services/backups/pg-tools.ts';
import { dataFolderContents } from '../../../../../server/services/backups/set-aside.ts';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);

test('backup names are UTC times without colons, and sort oldest first', () => {
  expect(backupName(new Date('2026-11-28T15:08:00.123Z'))).toBe('backup-2026-11-28T15-08-00-123Z');
  const names = ['2026-11-28T15:08:00.123Z', '2026-11-28T09:00:00.000Z', '2027-01-01T00:00:00.000Z'].map(
    (at) => backupName(new Date(at)),
  );
  expect([...names].sort()).toEqual([names[1], names[0], names[2]]);
});

test('each backup is written whole and the folder keeps the BACKUP_KEEP newest', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-backups-unit-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    BACKUP_KEEP: '3',
    SESSION_SECRET: 's'.repeat(32),
    TOKEN_KEY: KEY.toString('hex'),
  });
  let clock = Date.parse('2026-11-28T10:00:00.000Z');
  const database = { kind: 'pglite' as const, snapshot: async () => new Uint8Array([1, 2, 3]) };
  const taken = [];
  for (let i = 0; i < 5; i++) {
    clock += 60_000;
    taken.push(
      await backUp({ config, database, tokenKey: KEY, takenBy: 'schedule', now: () => new Date(clock) }),
    );
  }
  expect(taken[4]?.removed).toEqual([taken[1]?.name]);
  expect((await listBackups(config.backups.dir)).map((backup) => backup.name)).toEqual(
    [taken[4], taken[3], taken[2]].map((backup) => backup?.name),
  );
  // Both secrets come from the environment: no secrets.json in the backup, and the operator is warned.
  expect(taken[0]).toMatchObject({ secretsFile: false, bytes: expect.any(Number) as unknown });
  expect(taken[0]?.warnings.join(' ')).toContain(
    'TOKEN_KEY is set in the environment, so it is not in this backup',
  );
  expect((await readdir(taken[4]?.path ?? '')).sort()).toEqual(['backup.json', 'pglite.tar.gz']);

  // A failed dump leaves neither a backup nor its staging folder.
  const failing = { kind: 'pglite' as const, snapshot: () => Promise.reject(new Error('disk full')) };
  await expect(backUp({ config, database: failing, tokenKey: KEY, takenBy: 'cli' })).rejects.toThrow(
    'disk full',
  );
  expect((await readdir(config.backups.dir)).filter((name) => name.startsWith('.'))).toEqual([]);
  expect(await listBackups(config.backups.dir)).toHaveLength(3);
});

test('a folder without a readable backup.json is not a backup', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-backups-list-'));
  await writeBackup(dir, new Date('2026-11-28T10:00:00.000Z'), async () => ({
    format: 1,
    version: '0.1.0',
    kind: 'pglite',
    takenAt: '2026-11-28T10:00:00.000Z',
    takenBy: 'cli',
    databaseFile: 'pglite.tar.gz',
    databaseBytes: 0,
    secretsFile: false,
    secretsFromEnvironment: [],
    tokenKeyFingerprint: tokenKeyFingerprint(KEY),
  }));
  await mkdir(path.join(dir, 'backup-2026-11-28T11-00-00-000Z'));
  await mkdir(path.join(dir, 'notes'));
  expect((await listBackups(dir)).map((backup) => backup.name)).toEqual(['backup-2026-11-28T10-00-00-000Z']);
  expect(await listBackups(path.join(dir, 'missing'))).toEqual([]);
});

test('the secrets warnings name variables, never values, and a restore checks the token key', () => {
  expect(backupSecretsWarnings([], true)).toEqual([
    'secrets.json is in this backup: it decrypts the stored Threads tokens, so keep the backup as private as the data folder.',
  ]);
  expect(backupSecretsWarnings(['TOKEN_KEY', 'SESSION_SECRET'], false)).toHaveLength(2);
  const fromFile = {
    secretsFile: true,
    secretsFromEnvironment: [],
    tokenKeyFingerprint: tokenKeyFingerprint(KEY),
  };
  expect(restoreSecretsWarnings(fromFile, undefined)).toEqual([]);
  expect(restoreSecretsWarnings(fromFile, OTHER_KEY)[0]).toMatch(/^TOKEN_KEY is set in this environment/);
  const fromEnv = { ...fromFile, secretsFile: false, secretsFromEnvironment: ['TOKEN_KEY'] };
  expect(restoreSecretsWarnings(fromEnv, KEY)).toEqual([]);
  expect(restoreSecretsWarnings(fromEnv, undefined)[0]).toMatch(/start the server with that same TOKEN_KEY/);
  expect(restoreSecretsWarnings(fromEnv, OTHER_KEY)[0]).toMatch(/not the key this backup was taken with/);
  expect(tokenKeyFingerprint(KEY)).toMatch(/^[0-9a-f]{16}$/);
  expect(tokenKeyFingerprint(KEY)).not.toBe(tokenKeyFingerprint(OTHER_KEY));
});

test('pg_dump is found on PATH first, else under the newest Debian version; the password stays apart', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'ct-pg-tools-'));
  const tool = async (dir: string) => {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'pg_dump'), '#!/bin/sh\n');
    await chmod(path.join(dir, 'pg_dump'), 0o755);
  };
  await tool(path.join(root, 'debian', '9.6', 'bin'));
  await tool(path.join(root, 'debian', '15', 'bin'));
  await tool(path.join(root, 'path'));
  const debian = path.join(root, 'debian');
  expect(await findPgTool('pg_dump', path.join(root, 'path'), debian)).toBe(
    path.join(root, 'path', 'pg_dump'),
  );
  expect(await findPgTool('pg_dump', '/nonexistent', debian)).toBe(path.join(debian, '15', 'bin', 'pg_dump'));
  expect(await findPgTool('pg_restore', '/nonexistent', debian)).toBeNull();

  expect(splitPassword('postgres://app:s%40cret@db.example:5432/ct?sslmode=require')).toEqual({
    url: 'postgres://app@db.example:5432/ct?sslmode=require',
    password: 's@cret',
  });
  expect(splitPassword('postgres://app@db/ct')).toEqual({ url: 'postgres://app@db/ct', password: undefined });
});

test('a restore leaves the lock, the backups and earlier set-aside folders where they are', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-set-aside-'));
  for (const name of ['pglite', 'catalogue', 'backups', 'run', 'before-restore-2026'])
    await mkdir(path.join(dataDir, name));
  for (const name of ['secrets.json', 'server.pid']) await writeFile(path.join(dataDir, name), '');
  expect(await dataFolderContents(dataDir, path.join(dataDir, 'backups'))).toEqual([
    'catalogue',
    'pglite',
    'secrets.json',
  ]);
  expect(await dataFolderContents(path.join(dataDir, 'missing'), '/elsewhere')).toEqual([]);
});

test('the backup settings are checked, with one line per problem', () => {
  const cwd = '/srv/ct';
  const defaults = loadConfig({}, cwd).backups;
  expect(defaults).toEqual({ intervalHours: 24, keep: 7, dir: '/srv/ct/.data/backups' });
  expect(() => loadConfig({ BACKUP_KEEP: '0', BACKUP_INTERVAL_HOURS: 'daily' }, cwd)).toThrow(
    'Invalid configuration:\n  BACKUP_INTERVAL_HOURS: must be a number (got "daily")\n  BACKUP_KEEP: must be at least 1 (got "0")',
  );
  expect(() => loadConfig({ BACKUP_DIR: 'dist/backups' }, cwd)).toThrow(
    'BACKUP_DIR (/srv/ct/dist/backups) must be apart from SITE_DIR (/srv/ct/dist).',
  );
  expect(() => loadConfig({ BACKUP_DIR: '.' }, cwd)).toThrow('must be apart from DATA_DIR (/srv/ct/.data).');
  expect(loadConfig({ BACKUP_INTERVAL_HOURS: '0', BACKUP_DIR: '/mnt/offsite' }, cwd).backups).toMatchObject({
    intervalHours: 0,
    dir: '/mnt/offsite',
  });
});
