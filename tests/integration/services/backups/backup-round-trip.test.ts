import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { loadConfig, type Config } from '../../../../server/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '../../../../server/db/client.ts';
import { createThreadsTokensRepository } from '../../../../server/repositories/threads-tokens.ts';
import { createUsersRepository } from '../../../../server/repositories/users.ts';
import { loadSecrets } from '../../../../server/secrets.ts';
import { backUp } from '../../../../server/services/backups/back-up.ts';
import { listBackups, type Backup } from '../../../../server/services/backups/backup-folder.ts';
import { restoreBackup, RestoreRefusal } from '../../../../server/services/backups/restore.ts';
import { countRows } from '../../../../server/services/backups/table-counts.ts';
import { decryptToken } from '../../../../server/threads/token-cipher.ts';
import { testDatabase } from '../../helpers/database.ts';
import {
  runSqlOn,
  SEEDED_TABLES,
  SEEDED_TOKEN,
  SEEDED_USER_ID,
  seedEveryFamily,
} from '../../helpers/seeded-families.ts';

/** Opening PGlite (three times here) takes seconds on a busy machine; pg_dump and pg_restore are processes. */
const SLOW = { timeout: 180_000 };

const tempDir = (name: string) => mkdtemp(path.join(tmpdir(), `ct-backup-${name}-`));

/** The configuration a server on `dataDir` (and `databaseUrl`, when given) would run with. */
function configFor(dataDir: string, databaseUrl?: string, backupDir?: string): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(backupDir ? { BACKUP_DIR: backupDir } : {}),
  });
}

/** What a restored database must show: every row, the member, and a token its restored secrets open. */
async function expectSameData(
  restored: DatabaseHandle,
  config: Config,
  before: Record<string, number>,
): Promise<void> {
  const after = await countRows(runSqlOn(restored.db));
  expect(after).toEqual(before);
  for (const table of SEEDED_TABLES) expect(after[table], table).toBeGreaterThan(0);
  const maren = await createUsersRepository(restored.db).findByThreadsUserId(SEEDED_USER_ID);
  expect(maren?.threadsUsername).toBe('Maren');
  const stored = await createThreadsTokensRepository(restored.db).find(maren?.id ?? '');
  // The restored data folder's secrets.json (or the same environment) still opens the sealed token.
  const { tokenKey } = await loadSecrets(config);
  expect(decryptToken(stored?.ciphertext ?? '', maren?.id ?? '', tokenKey)).toBe(SEEDED_TOKEN);
}

/** The embedded database, backed up while open (as the server does) and restored into a fresh folder. */
async function embeddedRoundTrip(): Promise<void> {
  const source = configFor(await tempDir('source'));
  const { tokenKey } = await loadSecrets(source);
  const database = await openPglite(source.dataDir);
  let backup: Backup | undefined;
  let before: Record<string, number>;
  try {
    await database.migrate();
    await seedEveryFamily(database.db, tokenKey);
    before = await countRows(runSqlOn(database.db));
    const result = await backUp({ config: source, database, tokenKey, takenBy: 'schedule' });
    expect(result).toMatchObject({ kind: 'pglite', secretsFile: true, removed: [] });
    expect((await readdir(result.path)).sort()).toEqual(['backup.json', 'pglite.tar.gz', 'secrets.json']);
    // Written after the backup: it must not be in it.
    await database.db.execute(sql`insert into app_meta (key, value) values ('after-backup', 'x')`);
    [backup] = await listBackups(source.backups.dir);
  } finally {
    await database.close();
  }
  if (!backup) throw new Error('no backup listed');

  const fresh = configFor(await tempDir('fresh'));
  const restored = await restoreBackup({ config: fresh, backup, force: false });
  expect(restored.rows).toEqual(before);
  expect(restored).toMatchObject({ setAside: null, secretsRestored: true, warnings: [] });
  const reopened = await openPglite(fresh.dataDir);
  try {
    await expectSameData(reopened, fresh, before);
  } finally {
    await reopened.close();
  }
  // A second restore into the same folder needs --force, and keeps what was there.
  await expect(restoreBackup({ config: fresh, backup, force: false })).rejects.toThrow(RestoreRefusal);
  const forced = await restoreBackup({ config: fresh, backup, force: true });
  expect((await readdir(forced.setAside ?? '')).sort()).toEqual(['pglite', 'secrets.json']);
}

/** PostgreSQL: pg_dump of one database, pg_restore into another (both made for the test). */
async function postgresRoundTrip(url: string): Promise<void> {
  const admin = await testDatabase();
  const stamp = `${Date.now()}_${process.pid}`;
  const names = [`ct_backup_src_${stamp}`, `ct_backup_dst_${stamp}`];
  const urls = names.map((name) => Object.assign(new URL(url), { pathname: `/${name}` }).href);
  const [sourceUrl = '', targetUrl = ''] = urls;
  for (const name of names) await admin.db.execute(sql.raw(`create database ${name}`));
  const source = configFor(await tempDir('pg-source'), sourceUrl);
  const target = configFor(await tempDir('pg-target'), targetUrl, source.backups.dir);
  const open: DatabaseHandle[] = [];
  try {
    const { tokenKey } = await loadSecrets(source);
    const database = openPostgres(sourceUrl);
    open.push(database);
    await database.migrate();
    await seedEveryFamily(database.db, tokenKey);
    const before = await countRows(runSqlOn(database.db));
    const result = await backUp({ config: source, database, tokenKey, takenBy: 'cli' });
    expect(result).toMatchObject({ kind: 'postgres', secretsFile: true });
    expect((await readdir(result.path)).sort()).toEqual(['backup.json', 'database.dump', 'secrets.json']);
    const [backup] = await listBackups(source.backups.dir);
    if (!backup) throw new Error('no backup listed');
    // The embedded database cannot take a pg_dump.
    await expect(
      restoreBackup({ config: configFor(await tempDir('wrong')), backup, force: false }),
    ).rejects.toThrow('is a PostgreSQL backup');

    const restored = await restoreBackup({ config: target, backup, force: false });
    expect(restored.rows).toEqual(before);
    const reopened = openPostgres(targetUrl);
    open.push(reopened);
    await expectSameData(reopened, target, before);
    // The target now has tables: replacing them needs --force.
    await expect(restoreBackup({ config: target, backup, force: false })).rejects.toThrow(RestoreRefusal);
    expect((await restoreBackup({ config: target, backup, force: true })).rows).toEqual(before);
  } finally {
    await Promise.all(open.map((handle) => handle.close()));
    for (const name of names) await admin.db.execute(sql.raw(`drop database if exists ${name}`));
  }
}

// On the PostgreSQL pass (DATABASE_URL set) the backup is pg_dump's; otherwise the embedded database's.
test(
  'a backup restored into a fresh database holds every row, and its secrets open the stored tokens',
  { tags: ['engine'], ...SLOW },
  async () => {
    const url = process.env.DATABASE_URL;
    if (url) await postgresRoundTrip(url);
    else await embeddedRoundTrip();
  },
);
