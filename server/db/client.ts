import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { runUnderLease, type LeaseOptions } from './job-leases.ts';
import {
  listenOn,
  type ChannelListener,
  type ListenHandlers,
  type ListenTiming,
} from './listen-connection.ts';
import { migratePostgres } from './migrate-postgres.ts';
import * as messagesSchema from './schema-messages.ts';
import * as mainSchema from './schema.ts';

/** Every table Drizzle knows: the two schema files are one schema (schema-messages.ts says why). */
const schema = { ...mainSchema, ...messagesSchema };
export type Schema = typeof schema;
/** The Drizzle handle every repository takes: the same type on PGlite and on PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe when several instances start at once on PostgreSQL. */
  migrate(): Promise<void>;
  /**
   * Runs a job unless another run (on any instance) holds its lease: a row of `job_schedules`
   * claimed with one atomic statement and renewed by a heartbeat (job-leases.ts), so it works
   * behind a transaction pooler and a dead instance's lease expires. Never waits.
   */
  withJobLock<T>(
    name: string,
    job: () => Promise<T>,
    options?: LeaseOptions,
  ): Promise<{ ran: true; result: T } | { ran: false }>;
  /**
   * PostgreSQL only: sends `payload` on `channel` to every session listening (pg_notify; works
   * through a transaction pooler). Undefined on PGlite, which is one process.
   */
  notify?(channel: string, payload: string): Promise<void>;
  /** PostgreSQL only: listens on `channel` through a connection of its own (DATABASE_LISTEN_URL). */
  listen?(channel: string, handlers: ListenHandlers, timing?: ListenTiming): ChannelListener;
  /**
   * PGlite only: the data folder as a gzipped tarball, taken between transactions (decision 050).
   * Undefined on PostgreSQL, which is backed up with pg_dump.
   */
  snapshot?(): Promise<Uint8Array>;
  /** Answers true when a trivial query succeeds within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, 'migrations');

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
 * A consistent copy of a live PGlite's folder. The checkpoint writes committed pages out first, so
 * a restore replays little WAL; the dump then waits for any open transaction to end (PGlite runs
 * transactions under a mutex of their own) and blocks queries while it reads the files.
 */
async function snapshotPglite(client: PGlite): Promise<Uint8Array> {
  await client.exec('CHECKPOINT');
  const tarball = await client._runExclusiveTransaction(() => client.dumpDataDir('gzip'));
  return new Uint8Array(await tarball.arrayBuffer());
}

/**
 * Opens PGlite in `dataDir/pglite` (or in memory for `memory://`). PGlite has one connection and
 * no lock of its own on the folder: callers hold a pid lock (see pid-lock.ts) before opening it.
 * `loadDataDir` starts an empty location from a snapshot (a `snapshot()` tarball) instead of initdb.
 */
export async function openPglite(
  dataDir: string | 'memory://',
  { loadDataDir }: { loadDataDir?: Blob } = {},
): Promise<DatabaseHandle> {
  let location: string = dataDir;
  if (dataDir !== 'memory://') {
    location = path.join(dataDir, 'pglite');
    // PGlite writes its files readable and writable by everyone (0666 under umask 022), so the folder
    // that holds them is its owner's alone, whatever the umask; an older, open folder is closed too.
    // DATA_DIR itself keeps its mode: nginx reads the catalogue folder inside it (decision 041).
    await mkdir(dataDir, { recursive: true });
    await mkdir(location, { recursive: true, mode: 0o700 });
    await chmod(location, 0o700);
  }
  const client = await PGlite.create(location, loadDataDir ? { loadDataDir } : {});
  const db = drizzlePglite({ client, schema });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // The same leases as on PostgreSQL: one process, but the schedule is kept across restarts.
    withJobLock: (name, job, options) => runUnderLease(db, name, job, options),
    snapshot: () => snapshotPglite(client),
    ping: (timeoutMs = 2000) => (closed ? Promise.resolve(false) : ping(db, timeoutMs)),
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

/**
 * Opens a pool on PostgreSQL. `listenUrl` is where LISTEN connects (by default `databaseUrl`): it
 * must reach PostgreSQL directly or through a session pooler, never a transaction pooler.
 */
export function openPostgres(
  databaseUrl: string,
  options: { listenUrl?: string | undefined } = {},
): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server emits 'error' on the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema });
  let closed: Promise<void> | undefined;
  return {
    db,
    kind: 'postgres',
    migrate: () => migratePostgres(pool, MIGRATIONS_FOLDER),
    withJobLock: (name, job, options) => runUnderLease(db, name, job, options),
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: (channel, handlers, timing) =>
      listenOn(options.listenUrl ?? databaseUrl, channel, handlers, timing),
    ping: (timeoutMs = 2000) => (closed ? Promise.resolve(false) : ping(db, timeoutMs)),
    // pool.end() throws when called twice; shutdown paths may close more than once.
    close: () => (closed ??= pool.end()),
  };
}

/** PostgreSQL when a URL is given, else embedded PGlite in the data folder. */
export function openDatabase(options: {
  databaseUrl: string | undefined;
  /** DATABASE_LISTEN_URL: where LISTEN connects on PostgreSQL (default: databaseUrl). */
  listenUrl?: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? Promise.resolve(openPostgres(options.databaseUrl, { listenUrl: options.listenUrl }))
    : openPglite(options.dataDir);
}
