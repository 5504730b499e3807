import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CurationRunSummary } from '../../contract/review.ts';
import { api, settledRun, signInCurator } from '../integration/auth/helpers.ts';
import { resetDatabase, testDatabase } from '../integration/helpers/database.ts';
import {
  startServerProcess,
  waitUntilListening,
  type ServerProcess,
} from '../integration/helpers/server-process.ts';

// Two real server processes on one PostgreSQL, as behind a load balancer: they share the database
// and the secrets, and the job's lease (job_schedules) lets only one of them curate at a time.
const databaseUrl = process.env.DATABASE_URL ?? '';
let servers: ServerProcess[] = [];

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  const shared = {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    TOKEN_KEY: randomBytes(32).toString('hex'),
    CURATION_KEYWORDS: 'design system,typography,accessibility,ux research,color,motion',
  };
  servers = await Promise.all(
    [1, 2].map(async () =>
      startServerProcess({ ...shared, DATA_DIR: await mkdtemp(path.join(tmpdir(), 'ct-instance-')) }),
    ),
  );
  await Promise.all(servers.map((server) => waitUntilListening(server)));
  // The first admin sign-in starts a curation run of its own (decision 024): it must be over before
  // the tests count runs or take the lease.
  const base = baseOf(servers[0] as ServerProcess);
  await settledRun(base, await signInCurator(base));
});

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
});

const baseOf = (server: ServerProcess) => `http://127.0.0.1:${server.port}`;

test('while another instance holds the curation lease, neither server starts a run', async () => {
  const admin = await signInCurator(baseOf(servers[0] as ServerProcess));
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  try {
    // What a run on a third instance looks like: the job's lease held, renewed by its heartbeat.
    const { rowCount } = await holder.query(
      `insert into job_schedules (name, lease_holder, lease_until, last_started_at)
       values ('curate', 'elsewhere:1:test', now() + interval '1 minute', now())
       on conflict (name) do update set lease_holder = excluded.lease_holder, lease_until = excluded.lease_until
       where job_schedules.lease_until is null or job_schedules.lease_until < now()`,
    );
    expect(rowCount).toBe(1);
    for (const server of servers) {
      const refused = await api(baseOf(server), '/api/admin/refresh', { method: 'POST', cookie: admin });
      expect(refused.status).toBe(409);
    }
    // The run elsewhere ends and releases its lease.
    await holder.query(
      "update job_schedules set lease_holder = null, lease_until = null where lease_holder = 'elsewhere:1:test'",
    );
  } finally {
    await holder.end();
  }
  // The session and the curator's token work on both instances: either may run it now.
  const ran = await api(baseOf(servers[1] as ServerProcess), '/api/admin/refresh', {
    method: 'POST',
    cookie: admin,
  });
  expect(ran.status).toBe(200);
  expect(((await ran.json()) as { run: CurationRunSummary }).run.status).toBe('succeeded');
});

test('runs started on both servers at once never overlap', async () => {
  const admin = await signInCurator(baseOf(servers[0] as ServerProcess));
  const before = await runs(admin);
  const answers = await Promise.all(
    [...servers, ...servers].map((server) =>
      api(baseOf(server), '/api/admin/refresh', { method: 'POST', cookie: admin }),
    ),
  );
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
  const ran = statuses.filter((status) => status === 200).length;
  expect(ran).toBeGreaterThanOrEqual(1);
  const after = await runs(admin);
  const fresh = after.filter((run) => !before.some((old) => old.id === run.id));
  expect(fresh).toHaveLength(ran);
  const spans = fresh
    .map((run) => [Date.parse(run.started_at), Date.parse(run.finished_at ?? '')] as const)
    .sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    expect(spans[i]?.[0]).toBeGreaterThanOrEqual(spans[i - 1]?.[1] ?? Infinity);
  }
});

async function runs(admin: string): Promise<CurationRunSummary[]> {
  const response = await api(baseOf(servers[0] as ServerProcess), '/api/admin/runs', { cookie: admin });
  return ((await response.json()) as { runs: CurationRunSummary[] }).runs;
}
