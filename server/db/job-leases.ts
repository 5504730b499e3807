/**
 * Job leases in the `job_schedules` table: who runs a job now, until when, and when it is next due.
 * Every claim is ONE atomic statement on a pooled connection, so it works through a transaction
 * pooler (PgBouncer) where session-level advisory locks do not, and the same code runs on PGlite.
 * All times are the database's `now()`, so instances with skewed clocks still agree.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { jobSchedules } from './schema.ts';

type Db = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** How long a lease lasts without a heartbeat: a killed instance's job is taken over after this. */
export const DEFAULT_LEASE_MS = 60_000;

/** This process, as lease holders name it (with a token per run): what an operator sees in the table. */
export const INSTANCE_NAME = `${hostname()}:${process.pid}`;

export interface LeaseOptions {
  /** How long the lease lasts without a heartbeat; renewed every third of it while the job runs. */
  leaseMs?: number | undefined;
  /** Claim only when the job is due (the schedule); without it the run is claimed now (manual runs, locks). */
  onlyWhenDue?: boolean | undefined;
  /** Next due this long after the run started; without it the due time is left as it is. */
  intervalMs?: number | undefined;
  /** Called once when a heartbeat finds the lease gone (expired and taken over while the job still ran). */
  onLeaseLost?: (() => void) | undefined;
}

export type LeaseOutcome<T> = { ran: true; result: T } | { ran: false };

const millis = (value: number): SQL =>
  sql`(${Math.round(value)}::double precision * interval '1 millisecond')`;
const leaseIsFree = (): SQL =>
  sql`(${jobSchedules.leaseUntil} is null or ${jobSchedules.leaseUntil} < now())`;

/**
 * Makes sure the job has a row: a new job is first due `firstRunAfterMs` from now (a restart finds
 * the stored due time, so it does not stampede Threads); a shorter interval than the one stored
 * takes effect at once.
 */
export async function ensureSchedule(
  db: Db,
  name: string,
  timing: { firstRunAfterMs: number; intervalMs: number },
): Promise<void> {
  await db
    .insert(jobSchedules)
    .values({ name, nextDueAt: sql`now() + ${millis(timing.firstRunAfterMs)}` })
    .onConflictDoUpdate({
      target: jobSchedules.name,
      set: { nextDueAt: sql`least(${jobSchedules.nextDueAt}, now() + ${millis(timing.intervalMs)})` },
    });
}

/** Claims a due run when nobody holds the lease; true when this holder got it. */
async function claimDue(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(jobSchedules)
    .set({ leaseHolder: holder, leaseUntil: sql`now() + ${millis(leaseMs)}`, lastStartedAt: sql`now()` })
    .where(and(eq(jobSchedules.name, name), lte(jobSchedules.nextDueAt, sql`now()`), leaseIsFree()))
    .returning({ name: jobSchedules.name });
  return rows.length > 0;
}

/** Claims a run now, due or not, when nobody holds the lease (the row is made when missing). */
async function claimNow(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const lease = {
    leaseHolder: holder,
    leaseUntil: sql`now() + ${millis(leaseMs)}`,
    lastStartedAt: sql`now()`,
  };
  const rows = await db
    .insert(jobSchedules)
    .values({ name, ...lease })
    .onConflictDoUpdate({ target: jobSchedules.name, set: lease, where: leaseIsFree() })
    .returning({ name: jobSchedules.name });
  return rows.length > 0;
}

/** Extends the lease; false when this holder no longer has it. */
async function renew(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(jobSchedules)
    .set({ leaseUntil: sql`now() + ${millis(leaseMs)}` })
    .where(and(eq(jobSchedules.name, name), eq(jobSchedules.leaseHolder, holder)))
    .returning({ name: jobSchedules.name });
  return rows.length > 0;
}

/** Ends the lease, records the outcome and, with an interval, sets the next due time from the start. */
async function release(
  db: Db,
  name: string,
  holder: string,
  outcome: 'succeeded' | 'failed',
  intervalMs: number | undefined,
): Promise<void> {
  await db
    .update(jobSchedules)
    .set({
      leaseHolder: null,
      leaseUntil: null,
      lastFinishedAt: sql`now()`,
      lastOutcome: outcome,
      ...(intervalMs === undefined
        ? {}
        : { nextDueAt: sql`${jobSchedules.lastStartedAt} + ${millis(intervalMs)}` }),
    })
    .where(and(eq(jobSchedules.name, name), eq(jobSchedules.leaseHolder, holder)));
}

/**
 * Runs `job` under the lease of `name`, or answers `{ran: false}` when another run holds it (or,
 * with `onlyWhenDue`, when it is not due). A heartbeat renews the lease while the job runs; the
 * lease is released after it, whether it succeeded or threw (the error is thrown on).
 */
export async function runUnderLease<T>(
  db: Db,
  name: string,
  job: () => Promise<T>,
  options: LeaseOptions = {},
): Promise<LeaseOutcome<T>> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const holder = `${INSTANCE_NAME}:${randomUUID().slice(0, 8)}`;
  const claimed = options.onlyWhenDue
    ? await claimDue(db, name, holder, leaseMs)
    : await claimNow(db, name, holder, leaseMs);
  if (!claimed) return { ran: false };

  let finished = false;
  let lost = false;
  const heartbeat = setInterval(() => {
    renew(db, name, holder, leaseMs).then(
      (kept) => {
        // A renewal racing the release finds no lease: that is not a loss.
        if (kept || finished || lost) return;
        lost = true;
        options.onLeaseLost?.();
      },
      // Unreachable database: the next beat tries again; the lease lasts three beats.
      () => {},
    );
  }, leaseMs / 3);
  heartbeat.unref();
  let outcome: 'succeeded' | 'failed' = 'failed';
  try {
    const result = await job();
    outcome = 'succeeded';
    return { ran: true, result };
  } finally {
    finished = true;
    clearInterval(heartbeat);
    // Trap: a failed release must not turn a finished run into an error. The lease then simply
    // expires (within leaseMs) and the due time is not moved, so the job is run again after that.
    await release(db, name, holder, outcome, options.intervalMs).catch(() => {});
  }
}

/** The stored schedule of a job (for tests and operators), or undefined when it has never run. */
export async function readSchedule(db: Db, name: string) {
  const [row] = await db.select().from(jobSchedules).where(eq(jobSchedules.name, name));
  return row;
}
