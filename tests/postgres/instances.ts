import { mkdtemp } from 'node:fs/promises';
import { startApp } from '../integration/auth/helpers.ts';
import type { TestAppOptions } from '../integration/helpers/app.ts';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../server/db/client.ts';
import { curationRuns, jobSchedules } from '../../server/db/schema.ts';
import type { JobTiming } from '../../server/plugins/scheduler.ts';

/**
 * One instance of the real app with folders of its own, as on a machine of its own: instances share
 * only the database (two exports into one folder would remove each other's temporary files).
 * `env` adds or overrides settings (e.g. the real rate limits).
 */
export async function startInstance(
  options: TestAppOptions,
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; base: string }> {
  return startApp({ DATA_DIR: await mkdtemp(path.join(tmpdir(), 'ct-instance-')), ...env }, options);
}

/** The curation interval of the multi-instance tests: short, so a few intervals fit in a test. */
export const CURATE_INTERVAL_MS = 1500;

/**
 * Instances tick often and hold short leases, so a test sees several intervals and a dead lease
 * expire within seconds; the other jobs keep their own (minutes-long) first waits.
 */
export const instanceTiming: JobTiming = {
  tickMs: 100,
  leaseMs: 3000,
  jobs: { curate: { intervalMs: CURATE_INTERVAL_MS, firstRunAfterMs: 0 } },
};

/** Waits, up to a bounded deadline, until `check` holds; fails naming `what` otherwise. */
export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const HOLD_LEASE = path.join(import.meta.dirname, 'hold-lease.ts');

/** The curation job's row of job_schedules. */
async function schedule(db: Database) {
  return (await db.select().from(jobSchedules).where(eq(jobSchedules.name, 'curate')))[0];
}

/** The recorded curation runs, oldest first: when each started and finished (Infinity: running). */
async function runs(db: Database) {
  return (await db.select().from(curationRuns).orderBy(curationRuns.startedAt)).map((run) => ({
    started: run.startedAt.getTime(),
    finished: run.finishedAt?.getTime() ?? Infinity,
  }));
}

/** Instances that schedule curation: four runs come, each one interval after the last, none overlapping. */
export async function expectOneRunPerInterval(db: Database): Promise<void> {
  await until(async () => (await runs(db)).length >= 4, 'four curation runs', 60_000);
  const recorded = await runs(db);
  for (let i = 1; i < recorded.length; i++) {
    const [previous, run] = [recorded[i - 1], recorded[i]];
    if (!previous || !run) continue;
    // Instances each running their own schedule would start one run each per interval: two
    // instances' runs half an interval apart on average, three a third, so some pair closer than
    // that. The claim is timed by the database and the run's row written a moment after it: under
    // load that moment varied by more than 250 ms (CI, twice), hence a margin of a third.
    expect(run.started - previous.started).toBeGreaterThanOrEqual(CURATE_INTERVAL_MS - 500);
    expect(run.started).toBeGreaterThanOrEqual(previous.finished);
  }
  expect((await schedule(db))?.lastStartedAt).not.toBeNull();
}

/**
 * A process takes the curation lease through `holderUrl`, renews it, and is killed mid-run: no
 * instance runs curation while its lease lasts, and one does once it has expired.
 */
export async function expectKilledLeaseTakenOver(db: Database, holderUrl: string): Promise<void> {
  const holder = spawn(process.execPath, [HOLD_LEASE, 'curate', '1500'], {
    env: { ...process.env, DATABASE_URL: holderUrl },
  });
  let output = '';
  holder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  holder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(holder, 'exit');
  try {
    // Bounds for a loaded machine: the holder is a Node process that starts, then waits for a gap
    // between the instances' runs.
    await until(() => output.includes('claimed'), 'the lease is taken', 60_000);
    const held = await schedule(db);
    const heldBy = held?.leaseHolder ?? '';
    const firstEnd = held?.leaseUntil?.getTime() ?? 0;
    // Its heartbeat renews the lease past its first end.
    await until(async () => ((await schedule(db))?.leaseUntil?.getTime() ?? 0) > firstEnd, 'a renewal');
    holder.kill('SIGKILL');
    await exited;
    const last = await schedule(db);
    expect(last?.leaseHolder).toBe(heldBy);
    const lastEnd = last?.leaseUntil?.getTime() ?? 0;
    await until(async () => (await runs(db)).some((run) => run.started > lastEnd), 'a run elsewhere', 60_000);
    const startedWhileHeld = (await runs(db)).filter(
      (run) => run.started >= (held?.lastStartedAt?.getTime() ?? 0) && run.started <= lastEnd,
    );
    expect(startedWhileHeld).toEqual([]);
    expect((await schedule(db))?.leaseHolder ?? '').not.toBe(heldBy);
  } finally {
    holder.kill('SIGKILL');
  }
}
