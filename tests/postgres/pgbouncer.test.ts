import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MIGRATIONS_FOLDER, openPostgres } from '../../server/db/client.ts';
import { api, approvedMember, saveProfile, signInCurator } from '../integration/auth/helpers.ts';
import { resetDatabase, testDatabase } from '../integration/helpers/database.ts';
import {
  expectKilledLeaseTakenOver,
  expectOneRunPerInterval,
  instanceTiming,
  startInstance,
  until,
} from './instances.ts';
import { startPgBouncer, type PgBouncer } from './pgbouncer.ts';

// Instances behind Debian's PgBouncer in transaction pooling mode, the usual front of a managed
// PostgreSQL: a server connection serves one transaction of one client, then another client's, so
// nothing may live in a session (no session advisory lock, no LISTEN through it). The instances
// LISTEN directly (DATABASE_LISTEN_URL) and do everything else through the pooler.
const databaseUrl = process.env.DATABASE_URL ?? '';
let bouncer: PgBouncer;
let instances: { app: FastifyInstance; base: string }[] = [];

const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

beforeAll(async () => {
  bouncer = await startPgBouncer(databaseUrl);
});

afterAll(async () => {
  await bouncer?.stop();
});

test('the pooler is in transaction mode: eight clients share at most four server sessions', async () => {
  // Many clients, few server connections: each client's next transaction takes whichever is free.
  const clients = Array.from(
    { length: 8 },
    () => new pg.Client({ connectionString: bouncer.url(databaseUrl) }),
  );
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const sessions = async () =>
      Promise.all(
        clients.map(
          async (client) =>
            (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid,
        ),
      );
    const [first, second] = [await sessions(), await sessions()];
    // Eight clients shared at most four server sessions (default_pool_size).
    expect(new Set(first).size).toBeLessThanOrEqual(4);
    expect(new Set([...first, ...second]).size).toBeLessThanOrEqual(4);
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
});

test('instances starting at once through PgBouncer migrate an empty database once', async () => {
  const admin = await testDatabase();
  const name = `ct_bouncer_${Date.now()}`;
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const starting = Array.from({ length: 4 }, () => openPostgres(bouncer.url(url.href)));
  try {
    await Promise.all(starting.map((instance) => instance.migrate()));
    await starting[0]?.migrate();
    for (const instance of starting) {
      const [row] = await instance.db
        .select({ count: sql<number>`count(*)::int` })
        .from(sql`drizzle.__drizzle_migrations`);
      expect(row?.count).toBe(journal.entries.length);
    }
  } finally {
    await Promise.all(starting.map((instance) => instance.close()));
    // PgBouncer keeps server connections to it: force them out.
    await admin.db.execute(sql.raw(`drop database ${name} with (force)`));
  }
});

/** Two instances through the pooler on a reset database, listening directly. */
async function startInstances(schedule: boolean) {
  await resetDatabase(await testDatabase());
  instances = await Promise.all(
    [1, 2].map(() =>
      startInstance({
        database: openPostgres(bouncer.url(databaseUrl), { listenUrl: databaseUrl }),
        scheduleJobs: schedule,
        jobTiming: instanceTiming,
      }),
    ),
  );
  await signInCurator(instances[0]?.base ?? '');
}

async function stopInstances() {
  await Promise.all(instances.map(({ app }) => app.close()));
  instances = [];
}

describe('two instances scheduling through PgBouncer', () => {
  beforeAll(() => startInstances(true));
  afterAll(stopInstances);

  test('a scheduled job runs once per interval between them', async () =>
    expectOneRunPerInterval((await testDatabase()).db));

  test("a killed instance's lease, taken through the pooler, expires and another instance runs the job", async () =>
    expectKilledLeaseTakenOver((await testDatabase()).db, bouncer.url(databaseUrl)));
});

describe('two instances without schedules through PgBouncer', () => {
  beforeAll(() => startInstances(false));
  afterAll(stopInstances);

  test('a change sent through the pooler reaches the other instance, listening directly, within 2 s', async () => {
    const [a, b] = instances.map((instance) => instance.base) as [string, string];
    const member = await approvedMember(a, 'pooled');
    const bio = async () =>
      ((await (await api(b, '/api/user/profile/pooled')).json()) as { bio: string }).bio;
    expect((await saveProfile(a, member, 'pooled', 'one')).status).toBe(200);
    await until(async () => (await bio()) === 'one', 'B reads it');
    expect(await bio()).toBe('one');
    expect((await saveProfile(a, member, 'pooled', 'two')).status).toBe(200);
    await until(async () => (await bio()) === 'two', 'B reads the edit', 2000);
  });
});
