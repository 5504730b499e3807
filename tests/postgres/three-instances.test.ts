import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPostgres } from '../../server/db/client.ts';
import { LISTEN_APPLICATION_NAME } from '../../server/db/listen-connection.ts';
import { api, approvedMember, saveProfile, signInCurator } from '../integration/auth/helpers.ts';
import { resetDatabase, testDatabase } from '../integration/helpers/database.ts';
import {
  expectKilledLeaseTakenOver,
  expectOneRunPerInterval,
  instanceTiming,
  startInstance,
  until,
} from './instances.ts';

// Three instances of the real app on one PostgreSQL, each with its own pool and listening
// connection, as behind a load balancer: they share only the database.
const databaseUrl = process.env.DATABASE_URL ?? '';
let instances: { app: FastifyInstance; base: string }[] = [];

/** Three instances on an empty database; with `schedule`, curation every CURATE_INTERVAL_MS. */
async function startInstances(schedule: boolean) {
  await resetDatabase(await testDatabase());
  instances = await Promise.all(
    [1, 2, 3].map(() =>
      startInstance({
        database: openPostgres(databaseUrl),
        scheduleJobs: schedule,
        jobTiming: instanceTiming,
      }),
    ),
  );
  // Searches need the curator's token: runs before this fail with 'No curator' (still runs).
  await signInCurator(instances[0]?.base ?? '');
}

async function stopInstances() {
  await Promise.all(instances.map(({ app }) => app.close()));
  instances = [];
}

const { db } = await testDatabase();

describe('scheduled jobs', () => {
  beforeAll(() => startInstances(true));
  afterAll(stopInstances);

  test('a scheduled job runs once per interval across three instances, one run at a time', () =>
    expectOneRunPerInterval(db));

  test("a killed instance's lease holds the job until it expires; then another instance runs it", () =>
    expectKilledLeaseTakenOver(db, databaseUrl));
});

// Without schedules: a curation run announces a change of its own, which would clear the caches.
describe('content changes', () => {
  beforeAll(() => startInstances(false));
  afterAll(stopInstances);

  test('a profile edited on one instance is read fresh on the two others within 2 s', async () => {
    const [a, b, c] = instances.map((instance) => instance.base) as [string, string, string];
    for (const { app } of instances) expect(app.hearsOtherInstances()).toBe(true);
    const member = await approvedMember(a, 'travelling');
    const bio = async (base: string) => {
      const response = await api(base, '/api/user/profile/travelling');
      return ((await response.json()) as { bio: string }).bio;
    };
    await expect(saveProfile(a, member, 'travelling', 'first words')).resolves.toHaveProperty('status', 200);
    // B and C read it and keep it in their caches (30 s without a notice).
    await until(
      async () => (await bio(b)) === 'first words' && (await bio(c)) === 'first words',
      'B and C read it',
    );
    expect(await bio(b)).toBe('first words');

    expect((await saveProfile(a, member, 'travelling', 'second words')).status).toBe(200);
    await until(
      async () => (await bio(b)) === 'second words' && (await bio(c)) === 'second words',
      'B and C read the edit',
      2000,
    );
  });

  test('listeners hear their own instance as local and the others as remote, each change once', async () => {
    const heard = instances.map(() => [] as string[]);
    instances.forEach(({ app }, i) =>
      app.onContentChanged((change, origin) =>
        heard[i]?.push(`${change}:${origin.local ? 'here' : 'elsewhere'}`),
      ),
    );
    instances[1]?.app.contentChanged('decisions');
    await until(() => heard.every((lines) => lines.length > 0), 'every instance heard it', 2000);
    // PostgreSQL delivers notices in commit order: a second change sent after every instance heard
    // the first comes after any echo of the first.
    instances[0]?.app.contentChanged('profiles');
    await until(
      () => heard.every((lines) => lines.some((line) => line.startsWith('profiles'))),
      'the second',
      2000,
    );
    expect(heard).toEqual([
      ['decisions:elsewhere', 'profiles:here'],
      ['decisions:here', 'profiles:elsewhere'],
      ['decisions:elsewhere', 'profiles:elsewhere'],
    ]);
  });

  test('a listening connection that drops comes back, and changes flow again', async () => {
    const [a, b] = instances.map((instance) => instance.base) as [string, string];
    const member = await approvedMember(a, 'reconnecting');
    const bio = async (base: string) =>
      ((await (await api(base, '/api/user/profile/reconnecting')).json()) as { bio: string }).bio;
    expect((await saveProfile(a, member, 'reconnecting', 'before the cut')).status).toBe(200);
    await until(async () => (await bio(b)) === 'before the cut', 'B reads it');

    const listeners = sql`select pid from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME}`;
    // The Drizzle handle is typed for both drivers; on PostgreSQL an execute answers pg's result.
    const pids = async () =>
      ((await db.execute(listeners)) as unknown as { rows: { pid: number }[] }).rows.map((row) => row.pid);
    const cut = new Set(await pids());
    expect(cut.size).toBeGreaterThanOrEqual(3);
    await db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME}`,
    );
    // Back when three new listening connections exist and every instance says it hears the others.
    await until(
      async () =>
        (await pids()).filter((pid) => !cut.has(pid)).length >= 3 &&
        instances.every(({ app }) => app.hearsOtherInstances()),
      'every instance listens again',
      15_000,
    );
    // B caches the profile again, then hears of the next edit through its new connection.
    expect(await bio(b)).toBe('before the cut');
    expect((await saveProfile(a, member, 'reconnecting', 'after the cut')).status).toBe(200);
    await until(async () => (await bio(b)) === 'after the cut', 'B reads the edit', 2000);
  });
});
