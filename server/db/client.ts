import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The Drizzle handle every repository takes: the same type on PGlite and on PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe when several instances start at once on PostgreSQL. */
  migrate(): Promise<void>;
  /**
   * Runs a scheduled job unless another instance is running it: on PostgreSQL under a session
   * advisory lock (try, never wait); PGlite is one process, so the job simply runs.
   */
  withJobLock<T>(name: string, job: () => Promise<T>): Promise<{ ran: true; result: T } | { ran: false }>;
  /** Answers true when a trivial query succeeds within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, 'migrations');

// Any fixed 64-bit number: all instances agree on it, so only one migrates at a time.
const MIGRATION_LOCK_ID = 727_001;

async function ping(db: Database, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const query = db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Unlocks a session-level advisory lock and returns the connection to the pool. When the unlock
 * fails the connection is destroyed instead: a pooled connection still holding the lock would keep
 * the job locked out on every instance.
 */
async function releaseLock(client: pg.PoolClient, unlock: string, values: unknown[]): Promise<void> {
  try {
    await client.query(unlock, values);
    client.release();
  } catch (error) {
    client.release(error as Error);
  }
}

/**
 * Opens PGlite in `dataDir/pglite` (or in memory for `memory://`). PGlite has one connection and
 * no lock of its own on the folder: callers hold a pid lock (see pid-lock.ts) before opening it.
 */
export async function openPglite(dataDir: string | 'memory://'): Promise<DatabaseHandle> {
  let location: string = dataDir;
  if (dataDir !== 'memory://') {
    location = path.join(dataDir, 'pglite');
    await mkdir(location, { recursive: true });
  }
  const client = await PGlite.create(location);
  const db = drizzlePglite({ client, schema });
  let closed = false;
  const runningJobs = new Set<string>();
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // One process owns a PGlite folder (pid lock): an in-process set is the whole lock.
    async withJobLock(name, job) {
      if (runningJobs.has(name)) return { ran: false };
      runningJobs.add(name);
      try {
        return { ran: true, result: await job() };
      } finally {
        runningJobs.delete(name);
      }
    },
    ping: (timeoutMs = 2000) => (closed ? Promise.resolve(false) : ping(db, timeoutMs)),
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

/** Opens a pool on PostgreSQL. */
export function openPostgres(databaseUrl: string): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server emits 'error' on the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema });
  let closed: Promise<void> | undefined;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await releaseLock(lockClient, 'select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    },
    async withJobLock(name, job) {
      const client = await pool.connect();
      let locked = false;
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          'select pg_try_advisory_lock(hashtext($1)) as locked',
          [`job:${name}`],
        );
        locked = rows[0]?.locked === true;
        if (!locked) return { ran: false };
        return { ran: true, result: await job() };
      } finally {
        if (locked) await releaseLock(client, 'select pg_advisory_unlock(hashtext($1))', [`job:${name}`]);
        else client.release();
      }
    },
    ping: (timeoutMs = 2000) => (closed ? Promise.resolve(false) : ping(db, timeoutMs)),
    // pool.end() throws when called twice; shutdown paths may close more than once.
    close: () => (closed ??= pool.end()),
  };
}

/** PostgreSQL when a URL is given, else embedded PGlite in the data folder. */
export function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? Promise.resolve(openPostgres(options.databaseUrl))
    : openPglite(options.dataDir);
}
