import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ensureSchedule, readSchedule, runUnderLease } from '../../../server/db/job-leases.ts';
import { jobSchedules } from '../../../server/db/schema.ts';
import { startScheduler } from '../../../server/jobs/scheduler.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The scheduler's claims, leases and heartbeats on the worker's database (PGlite, or PostgreSQL
// when DATABASE_URL is set): the same table and statements the instances share in production.

beforeEach(async () => resetDatabase(await testDatabase()));
afterEach(async () => resetDatabase(await testDatabase()));

/** Waits, up to a bounded deadline, until `check` holds. */
async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A job that runs until released, with a promise that says it started. */
function heldJob<T>(result: T) {
  let release: () => void = () => {};
  let started: () => void = () => {};
  const hasStarted = new Promise<void>((resolve) => (started = resolve));
  const held = new Promise<void>((resolve) => (release = resolve));
  return { run: () => (started(), held.then(() => result)), release, hasStarted };
}

const silentLog = () => {
  const lines: string[] = [];
  const note = (_: unknown, message?: string) => void lines.push(message ?? String(_));
  return {
    log: { info: note, debug: note, warn: note, error: note } as unknown as FastifyBaseLogger,
    lines,
  };
};

test(
  'a run held by one holder refuses a second; after it, the next is claimed and due one interval from its start',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const first = heldJob('first');
    const running = runUnderLease(db, 'nightly', first.run, { intervalMs: 3_600_000 });
    await first.hasStarted;
    expect(await runUnderLease(db, 'nightly', async () => 'second')).toEqual({ ran: false });
    first.release();
    expect(await running).toEqual({ ran: true, result: 'first' });

    const row = await readSchedule(db, 'nightly');
    expect(row?.leaseHolder).toBeNull();
    expect(row?.lastOutcome).toBe('succeeded');
    expect(row?.nextDueAt.getTime()).toBe((row?.lastStartedAt?.getTime() ?? 0) + 3_600_000);
    expect(await runUnderLease(db, 'nightly', async () => 'second')).toEqual({ ran: true, result: 'second' });
  },
);

test(
  'a scheduled claim runs only a due job; a manual claim runs it regardless',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    await ensureSchedule(db, 'curate', { firstRunAfterMs: 60_000, intervalMs: 3_600_000 });
    let runs = 0;
    const job = async () => ++runs;
    expect(await runUnderLease(db, 'curate', job, { onlyWhenDue: true })).toEqual({ ran: false });
    expect(await runUnderLease(db, 'curate', job, { intervalMs: 3_600_000 })).toEqual({
      ran: true,
      result: 1,
    });
    // The manual run pushed the next one an interval away: the schedule does not run it again now.
    expect(await runUnderLease(db, 'curate', job, { onlyWhenDue: true })).toEqual({ ran: false });
    await db
      .update(jobSchedules)
      .set({ nextDueAt: sql`now() - interval '1 second'` })
      .where(eq(jobSchedules.name, 'curate'));
    expect(await runUnderLease(db, 'curate', job, { onlyWhenDue: true })).toEqual({ ran: true, result: 2 });
  },
);

test(
  'a restart keeps the stored due time; a shorter interval than the one stored takes effect',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    await ensureSchedule(db, 'daily', { firstRunAfterMs: 0, intervalMs: 86_400_000 });
    const first = await readSchedule(db, 'daily');
    await ensureSchedule(db, 'daily', { firstRunAfterMs: 600_000, intervalMs: 86_400_000 });
    expect((await readSchedule(db, 'daily'))?.nextDueAt).toEqual(first?.nextDueAt);

    await db
      .update(jobSchedules)
      .set({ nextDueAt: sql`now() + interval '1 day'` })
      .where(eq(jobSchedules.name, 'daily'));
    await ensureSchedule(db, 'daily', { firstRunAfterMs: 0, intervalMs: 60_000 });
    const [{ inMs } = { inMs: Infinity }] = await db
      .select({ inMs: sql<number>`extract(epoch from ${jobSchedules.nextDueAt} - now()) * 1000` })
      .from(jobSchedules)
      .where(eq(jobSchedules.name, 'daily'));
    expect(Number(inMs)).toBeLessThanOrEqual(60_000);
  },
);

test(
  "a dead holder's lease blocks until it expires, then another instance takes the run over",
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    await db.insert(jobSchedules).values({
      name: 'curate',
      nextDueAt: sql`now() - interval '1 minute'`,
      leaseHolder: 'dead-host:1:abcd',
      leaseUntil: sql`now() + interval '1 minute'`,
    });
    expect(await runUnderLease(db, 'curate', async () => 'x', { onlyWhenDue: true })).toEqual({ ran: false });
    expect(await runUnderLease(db, 'curate', async () => 'x')).toEqual({ ran: false });
    await db
      .update(jobSchedules)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(jobSchedules.name, 'curate'));
    expect(await runUnderLease(db, 'curate', async () => 'taken over', { onlyWhenDue: true })).toEqual({
      ran: true,
      result: 'taken over',
    });
  },
);

test(
  'a heartbeat renews the lease while the job runs; a lease taken meanwhile is reported lost',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const job = heldJob('slow');
    let lost = 0;
    const running = runUnderLease(db, 'slow', job.run, { leaseMs: 300, onLeaseLost: () => lost++ });
    await job.hasStarted;
    const claimed = (await readSchedule(db, 'slow'))?.leaseUntil?.getTime() ?? 0;
    await until(
      async () => ((await readSchedule(db, 'slow'))?.leaseUntil?.getTime() ?? 0) > claimed,
      'the lease is renewed',
    );
    // Renewed: past the first lease's end, nobody else can claim it.
    await until(async () => {
      const [row] = await db.select({ past: sql<boolean>`now() > ${new Date(claimed)}` }).from(jobSchedules);
      return row?.past === true;
    }, 'the first lease would have ended');
    expect(await runUnderLease(db, 'slow', async () => 'other')).toEqual({ ran: false });

    await db.update(jobSchedules).set({ leaseHolder: 'another:2:ffff' }).where(eq(jobSchedules.name, 'slow'));
    await until(() => lost === 1, 'the loss is reported');
    job.release();
    expect(await running).toEqual({ ran: true, result: 'slow' });
    // Its release does not touch the other holder's lease.
    expect((await readSchedule(db, 'slow'))?.leaseHolder).toBe('another:2:ffff');
  },
);

test(
  'a failing job releases its lease, records the failure and throws on',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    await expect(
      runUnderLease(db, 'fragile', async () => Promise.reject(new Error('Threads is down')), {
        intervalMs: 1000,
      }),
    ).rejects.toThrow('Threads is down');
    const row = await readSchedule(db, 'fragile');
    expect(row?.leaseHolder).toBeNull();
    expect(row?.lastOutcome).toBe('failed');
    expect(await runUnderLease(db, 'fragile', async () => 'fine')).toEqual({ ran: true, result: 'fine' });
  },
);

test(
  'two schedulers on one database run a shared job once per interval between them, each run after the last',
  { tags: ['engine'] },
  async () => {
    const database = await testDatabase();
    const starts: number[] = [];
    const job = (instance: string) => ({
      name: 'shared',
      intervalMs: 400,
      firstRunAfterMs: 0,
      // The database's start of this run, as the claim stored it.
      run: async () => {
        starts.push((await readSchedule(database.db, 'shared'))?.lastStartedAt?.getTime() ?? NaN);
        return instance;
      },
    });
    const logs = [silentLog(), silentLog()];
    const stops = ['a', 'b'].map((instance, i) =>
      startScheduler([job(instance)], database, logs[i]?.log as FastifyBaseLogger, { tickMs: 20 }),
    );
    try {
      await until(() => starts.length >= 4, 'four runs', 10_000);
    } finally {
      stops.forEach((stop) => stop());
    }
    // Every run was claimed at the database's due time: each began at least an interval after the last.
    for (let i = 1; i < starts.length; i++) {
      expect((starts[i] ?? 0) - (starts[i - 1] ?? 0)).toBeGreaterThanOrEqual(400);
    }
    // Stopping lets a run in progress finish, so its 'job finished' line may come after the stop.
    const finished = () =>
      logs.flatMap((entry) => entry.lines).filter((line) => line === 'job finished').length;
    await until(() => finished() >= starts.length, 'every started run finished');
    expect(finished()).toBe(starts.length);
  },
);

test(
  'a per-instance job runs on its own timer on every scheduler, without a lease row',
  { tags: ['engine'] },
  async () => {
    const database = await testDatabase();
    const runs = [0, 0];
    const { log } = silentLog();
    const stops = [0, 1].map((instance) =>
      startScheduler(
        [
          {
            name: 'local',
            intervalMs: 50,
            firstRunAfterMs: 0,
            perInstance: true,
            run: async () => (runs[instance] = (runs[instance] ?? 0) + 1),
          },
        ],
        database,
        log,
        { tickMs: 20 },
      ),
    );
    try {
      await until(() => runs.every((count) => count >= 2), 'both instances ran it twice');
    } finally {
      stops.forEach((stop) => stop());
    }
    expect(await readSchedule(database.db, 'local')).toBeUndefined();
  },
);
