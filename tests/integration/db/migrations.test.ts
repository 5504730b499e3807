import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { MIGRATIONS_FOLDER, openPostgres, type DatabaseHandle } from '../../../server/db/client.ts';
import { createAppMetaRepository } from '../../../server/repositories/app-meta.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

async function appliedMigrations(handle: DatabaseHandle): Promise<number> {
  const [row] = await handle.db
    .select({ count: sql<number>`count(*)::int` })
    .from(sql`drizzle.__drizzle_migrations`);
  return row?.count ?? 0;
}

beforeEach(async () => resetDatabase(await testDatabase()));
afterEach(async () => resetDatabase(await testDatabase()));

test(
  'every migration in the journal is applied, once, and applying again changes nothing',
  { tags: ['engine'] },
  async () => {
    const handle = await testDatabase();
    expect(journal.entries.length).toBeGreaterThan(0);
    expect(await appliedMigrations(handle)).toBe(journal.entries.length);
    await handle.migrate();
    expect(await appliedMigrations(handle)).toBe(journal.entries.length);
  },
);

test(
  'the migrated schema holds data: app_meta round-trips any text, in and out of a transaction',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const meta = createAppMetaRepository(db);
    await meta.set('probe', 'one');
    await meta.set('probe', "two'; drop table app_meta; --");
    expect(await meta.get('probe')).toBe("two'; drop table app_meta; --");
    expect(await meta.get('missing')).toBeNull();
    await expect(
      db.transaction(async (tx) => {
        await meta.set('probe', 'rolled back', tx);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await meta.get('probe')).toBe("two'; drop table app_meta; --");
  },
);

// PGlite is one connection in one process, so concurrent migration is a PostgreSQL-only situation:
// several API instances starting at once. This test exists only when the suite runs on PostgreSQL.
if (process.env.DATABASE_URL) {
  test(
    'on PostgreSQL, instances starting at the same moment on an empty database migrate it once',
    { tags: ['engine'] },
    async () => {
      const admin = await testDatabase();
      const name = `ct_migrate_${Date.now()}`;
      await admin.db.execute(sql.raw(`create database ${name}`));
      const url = new URL(process.env.DATABASE_URL ?? '');
      url.pathname = `/${name}`;
      const instances = Array.from({ length: 4 }, () => openPostgres(url.href));
      try {
        await Promise.all(instances.map((instance) => instance.migrate()));
        for (const instance of instances)
          expect(await appliedMigrations(instance)).toBe(journal.entries.length);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await admin.db.execute(sql.raw(`drop database ${name}`));
      }
    },
  );
}
