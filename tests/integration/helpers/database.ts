import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { openPglite, openPostgres, type DatabaseHandle } from '../../../server/db/client.ts';
import * as mainSchema from '../../../server/db/schema.ts';
import * as messagesSchema from '../../../server/db/schema-messages.ts';

/** Every table of the one Drizzle schema, across its two files. */
const schema = { ...mainSchema, ...messagesSchema };

let shared: Promise<DatabaseHandle> | undefined;

/** Opens a fresh, migrated database: PostgreSQL when DATABASE_URL is set, else PGlite in memory. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  const handle = url ? openPostgres(url) : await openPglite('memory://');
  await handle.migrate();
  return handle;
}

/**
 * The worker's database, created and migrated once (PGlite takes seconds to start) and shared by
 * every test file in the worker (the integration project runs with isolate: false).
 */
export function testDatabase(): Promise<DatabaseHandle> {
  shared ??= openTestDatabase();
  return shared;
}

/** Empties every table of the schema, so each test starts from the same state. */
export async function resetDatabase(handle: DatabaseHandle): Promise<void> {
  const tables = Object.values(schema)
    .filter((value) => is(value, PgTable))
    .map((table) => `"${getTableName(table)}"`);
  if (tables.length > 0) await handle.db.execute(sql.raw(`truncate table ${tables.join(', ')} cascade`));
}
