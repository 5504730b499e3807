import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { MIGRATIONS_FOLDER, type DatabaseHandle } from '../../../server/db/client.ts';
import { appMetaRepository } from '../../../server/repositories/app-meta.ts';
import { openTestDatabase, resetDatabase, testDatabase } from '../helpers/database.ts';

const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

async function appliedMigrations(handle?: DatabaseHandle): Promise<number> {
  const { db } = handle ?? (await testDatabase());
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(sql`drizzle.__drizzle_migrations`);
  return row?.count ?? 0;
}

beforeEach(async () => resetDatabase(await testDatabase()));
afterEach(async () => resetDatabase(await testDatabase()));

test('every migration in the journal is applied, once', async () => {
  expect(journal.entries.length).toBeGreaterThan(0);
  expect(await appliedMigrations()).toBe(journal.entries.length);
  await (await testDatabase()).migrate();
  expect(await appliedMigrations()).toBe(journal.entries.length);
});

test('the migrated schema holds data (app_meta upsert round-trips)', async () => {
  const { db } = await testDatabase();
  await appMetaRepository.set('probe', 'one', db);
  await appMetaRepository.set('probe', "two'; drop table app_meta; --", db);
  expect(await appMetaRepository.get('probe', db)).toBe("two'; drop table app_meta; --");
  expect(await appMetaRepository.get('missing', db)).toBeNull();
});

test('instances migrating at the same moment apply each migration once', async () => {
  const handles = await Promise.all([openTestDatabase(), openTestDatabase()]);
  try {
    await Promise.all(handles.map((handle) => handle.migrate()));
    for (const handle of handles) expect(await appliedMigrations(handle)).toBe(journal.entries.length);
  } finally {
    await Promise.all(handles.map((handle) => handle.close()));
  }
});
