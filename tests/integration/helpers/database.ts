import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { openPglite, openPostgres, type DatabaseHandle } from '../../../server/db/client.ts';
import * as mainSchema from '../../../server/db/schema.ts';
import * as messagesSchema from '../../../server/db/schema-messages.ts';

/** Every table of the one Drizzle schema, across its two files. */
const schema = { ...mainSchema, ...messagesSchema };

let shared: Promise<DatabaseHandle> | undefined;
/** The worker's first migrated PGlite, and its snapshot taken before anything else used it. */
let firstPglite: Promise<{ handle: DatabaseHandle; snapshot: Blob }> | undefined;

/** A fresh PGlite in memory, migrated: initdb and the migrations run once per worker, then it is copied. */
async function openMigratedPglite(): Promise<DatabaseHandle> {
  if (!firstPglite) {
    firstPglite = (async () => {
      const handle = await openPglite('memory://');
      await handle.migrate();
      const snapshot = await handle.snapshot?.();
      if (!snapshot) throw new Error('PGlite takes snapshots');
      // A copy: the tarball may sit on a shared buffer, which a Blob does not take.
      return { handle, snapshot: new Blob([snapshot.slice()]) };
    })();
    return (await firstPglite).handle;
  }
  const { snapshot } = await firstPglite;
  return openPglite('memory://', { loadDataDir: snapshot });
}

/** Opens a fresh, migrated database: PostgreSQL when DATABASE_URL is set, else PGlite in memory. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  if (!url) return openMigratedPglite();
  const handle = openPostgres(url);
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
