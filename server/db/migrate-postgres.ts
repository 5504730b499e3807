/**
 * Drizzle's migrations on PostgreSQL, in ONE transaction that first takes a transaction-scoped
 * advisory lock: several instances starting at once migrate one after another (the later ones find
 * nothing left to do), and the lock goes with the transaction, so it holds behind a transaction
 * pooler (PgBouncer) where a session-level lock would be taken on one server connection and
 * released, or leaked, on another. Drizzle's own migrator cannot be used: it reads what was applied
 * before its transaction begins and runs in a transaction of its own.
 */
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';

// Any fixed 64-bit number: all instances agree on it, so only one migrates at a time.
const MIGRATION_LOCK_ID = 727_001;

// Drizzle's bookkeeping, as its migrator keeps it: the two are interchangeable on one database.
const SCHEMA = 'drizzle';
const TABLE = `"${SCHEMA}"."__drizzle_migrations"`;

/** Applies the migrations in `folder` that the database has not seen yet. */
export async function migratePostgres(pool: pg.Pool, folder: string): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(`create schema if not exists "${SCHEMA}"`);
    await client.query(
      `create table if not exists ${TABLE} (id serial primary key, hash text not null, created_at bigint)`,
    );
    // Read under the lock: whatever another instance applied before us is seen here.
    const { rows } = await client.query<{ created_at: string | null }>(
      `select created_at from ${TABLE} order by created_at desc limit 1`,
    );
    const last = Number(rows[0]?.created_at ?? -1);
    for (const migration of migrations) {
      if (migration.folderMillis <= last) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await client.query(statement);
      }
      await client.query(`insert into ${TABLE} (hash, created_at) values ($1, $2)`, [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query('commit');
    client.release();
  } catch (error) {
    await client.query('rollback').catch(() => {});
    // A connection in an unknown state is not given back to the pool.
    client.release(error as Error);
    throw error;
  }
}
