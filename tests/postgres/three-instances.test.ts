import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPostgres } from '../../server/db/client.ts';
import { LISTEN_APPLICATION_NAME } from '../../server/db/listen-connection.ts';
import { curationRuns, jobSchedules } from '../../server/db/schema.ts';
import { api, approvedMember, saveProfile, signInCurator, startApp } from '../integration/auth/helpers.ts';
import { resetDatabase, testDatabase } from '../integration/helpers/database.ts';
import { CURATE_INTERVAL_MS, instanceTiming, until } from './instances.ts';

// Three instances of the real app on one PostgreSQL, each with its own pool and listening
// connection, as behind a load balancer: they share only the database.
const databaseUrl = process.env.DATABASE_URL ?? '';
const HOLD_LEASE = path.join(import.meta.dirname, 'hold-lease.ts');
let instances: { app: FastifyInstance; base: string }[] = [];

/** Three instances on an empty database; with `schedule`, curation every CURATE_INTERVAL_MS. */
async function startInstances(schedule: boolean) {
  await resetDatabase(await testDatabase());
  instances = await Promise.all(
    [1, 2, 3].map(() =>
      startApp(
        {},
        { database: openPostgres(databaseUrl), scheduleJobs: schedule, jobTiming: instanceTiming },
      ),
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
const schedule = async () => (await db.select().from(jobSchedules).where(eq(jobSchedules.name, 'curate')))[0];
const startsOfRuns = async () =>
  (await db.select().from(curationRuns).orderBy(curationRuns.startedAt)).map((run) => ({
    started: run.startedAt.getTime(),
    finished: run.finishedAt?.getTime() ?? Infinity,
  }));

describe('scheduled jobs', () => {
  beforeAll(() => startInstances(true));
  afterAll(stopInstances);

  test('a scheduled job runs once per interval across three instances, one run at a time', async () => {
    await until(async () => (await startsOfRuns()).length >= 4, 'four curation runs', 30_000);
    const runs = await startsOfRuns();
    for (let i = 1; i < runs.length; i++) {
      const [previous, run] = [runs[i - 1], runs[i]];
      if (!previous || !run) continue;
      // Three instances each running their own schedule would start three runs per interval. The
      // claim is timed by the database; the run's row is written a moment after it, hence the margin.
      expect(run.started - previous.started).toBeGreaterThanOrEqual(CURATE_INTERVAL_MS - 250);
      expect(run.started).toBeGreaterThanOrEqual(previous.finished);
    }
    const [schedule] = await db.select().from(jobSchedules).where(eq(jobSchedules.name, 'curate'));
    expect(schedule?.lastStartedAt).not.toBeNull();
  });

  test("a killed instance's lease holds the job until it expires; then another instance runs it", async () => {
    // A process that takes the curation lease, renews it, and is killed mid-run.
    const holder = spawn(process.execPath, [HOLD_LEASE, 'curate', '1500'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let output = '';
    holder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    holder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(holder, 'exit');
    try {
      await until(() => output.includes('claimed'), 'the lease is taken', 20_000);
      const held = await schedule();
      const heldBy = held?.leaseHolder ?? '';
      const firstEnd = held?.leaseUntil?.getTime() ?? 0;
      // Its heartbeat renews the lease past its first end; meanwhile no instance starts a run.
      await until(
        async () => ((await schedule())?.leaseUntil?.getTime() ?? 0) > firstEnd,
        'the lease is renewed',
      );
      holder.kill('SIGKILL');
      await exited;
      const lastEnd = (await schedule())?.leaseUntil?.getTime() ?? 0;
      expect((await schedule())?.leaseHolder).toBe(heldBy);
      await until(
        async () => (await startsOfRuns()).some((run) => run.started > lastEnd),
        'another instance runs it',
        20_000,
      );
      const startedWhileHeld = (await startsOfRuns()).filter(
        (run) => run.started >= (held?.lastStartedAt?.getTime() ?? 0) && run.started <= lastEnd,
      );
      expect(startedWhileHeld).toEqual([]);
      expect((await schedule())?.leaseHolder ?? '').not.toBe(heldBy);
    } finally {
      holder.kill('SIGKILL');
    }
  });
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
