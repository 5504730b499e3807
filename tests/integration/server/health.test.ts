import { access, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { HealthSchema, type Health } from '../../../contract/health.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import { PROBE_FILE } from '../../../server/routes/health/write-probes.ts';
import { VERSION } from '../../../server/version.ts';
import { buildTestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data folder of the test's own (the probe writes into it), removed afterwards. */
async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ct-health-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

async function health(app: FastifyInstance): Promise<{ res: LightMyRequestResponse; body: Health }> {
  const res = await app.inject({ url: '/api/health' });
  return { res, body: HealthSchema.parse(res.json()) };
}

/** Asks health (checks are reused for a second) until `expected` holds, for at most ten seconds. */
async function healthUntil(
  app: FastifyInstance,
  expected: (answer: { res: LightMyRequestResponse; body: Health }) => boolean,
) {
  let answer = await health(app);
  for (let attempt = 0; attempt < 50 && !expected(answer); attempt++) {
    await sleep(200);
    answer = await health(app);
  }
  return answer;
}

/**
 * Makes the database refuse writes while it still answers reads, as a standby does: on PGlite (one
 * session) for its session; on PostgreSQL for the database, ending the sessions that started before
 * so the pool reconnects under it. `false` undoes it.
 */
async function readOnly(database: DatabaseHandle, on: boolean): Promise<void> {
  if (database.kind === 'pglite') {
    await database.db.execute(sql.raw(`set default_transaction_read_only = ${on ? 'on' : 'off'}`));
    return;
  }
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('set default_transaction_read_only = off');
    const { rows } = await client.query<{ name: string }>('select current_database() as name');
    const name = (rows[0]?.name ?? '').replaceAll('"', '""');
    await client.query(
      on
        ? `alter database "${name}" set default_transaction_read_only = on`
        : `alter database "${name}" reset default_transaction_read_only`,
    );
    await client.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
  } finally {
    await client.end();
  }
}

test('health answers status, db, write, version and uptime, never cached', async () => {
  const app = await buildTestApp({ DATA_DIR: await dataFolder() });
  try {
    const { res, body } = await health(app);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(body).toMatchObject({ status: 'ok', db: 'ok', write: 'ok', version: VERSION });
    expect(body.detail).toBeUndefined();
  } finally {
    await app.close();
  }
});

test(
  'with the database gone, health answers 503 with Retry-After; the site itself stays up',
  { tags: ['engine'] },
  async () => {
    const database = await openTestDatabase();
    const app = await buildTestApp({}, { database });
    try {
      await database.close();
      const { res, body } = await health(app);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(body).toMatchObject({
        status: 'degraded',
        db: 'unavailable',
        write: 'failing',
        version: VERSION,
      });
      expect(body.detail).toBe('The database does not answer.');
      expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  },
);

test('with the data folder full (the probe file is /dev/full), health is degraded with the reason; it recovers', async () => {
  const folder = await dataFolder();
  // Every write to /dev/full fails with ENOSPC, exactly as on a full disk.
  await symlink('/dev/full', path.join(folder, PROBE_FILE));
  const app = await buildTestApp({ DATA_DIR: folder });
  try {
    const { res, body } = await health(app);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(body).toMatchObject({ status: 'degraded', db: 'ok', write: 'failing', version: VERSION });
    expect(body.detail).toBe('The data folder cannot be written: no space left on device (ENOSPC).');

    await rm(path.join(folder, PROBE_FILE));
    const recovered = await healthUntil(app, ({ res: answer }) => answer.statusCode === 200);
    expect(recovered.body).toMatchObject({ status: 'ok', db: 'ok', write: 'ok' });
    // A successful probe leaves nothing behind.
    await expect(access(path.join(folder, PROBE_FILE))).rejects.toThrow();
    expect((await readdir(folder)).filter((name) => name.startsWith('.health'))).toEqual([]);
  } finally {
    await app.close();
  }
});

test(
  'with a database that answers reads but refuses writes, health is degraded with the reason; it recovers',
  { tags: ['engine'] },
  async () => {
    const database = await openTestDatabase();
    const app = await buildTestApp({ DATA_DIR: await dataFolder() }, { database });
    try {
      await readOnly(database, true);
      const refused = await healthUntil(app, ({ body }) => body.detail?.includes('read-only') === true);
      expect(refused.res.statusCode).toBe(503);
      expect(refused.res.headers['retry-after']).toBe('5');
      expect(refused.body).toMatchObject({ status: 'degraded', db: 'ok', write: 'failing' });
      expect(refused.body.detail).toBe('The database cannot be written: it is read-only (25006).');

      await readOnly(database, false);
      const recovered = await healthUntil(app, ({ res }) => res.statusCode === 200);
      expect(recovered.body).toMatchObject({ status: 'ok', db: 'ok', write: 'ok' });
    } finally {
      // On PostgreSQL the setting outlives the test's sessions: always undo it.
      await readOnly(database, false);
      await app.close();
      await database.close();
    }
  },
);
