import { randomBytes } from 'node:crypto';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, settledRun, signInCurator } from '../integration/auth/helpers.ts';
import { resetDatabase, testDatabase } from '../integration/helpers/database.ts';
import {
  startServerProcess,
  waitUntilListening,
  type ServerProcess,
} from '../integration/helpers/server-process.ts';
import { TEST_SITE } from '../site-under-test.ts';

// Three real server processes on one PostgreSQL, sharing nothing else (decision 036): each has its
// own data and site folders. One holds the publisher lease and builds; all serve its versions.
const databaseUrl = process.env.DATABASE_URL ?? '';
const GAINED = 'this instance publishes the site now';
let servers: ServerProcess[] = [];
let client: pg.Client;
let admin = '';

const baseOf = (server: ServerProcess) => `http://127.0.0.1:${server.port}`;

async function startInstance(shared: Record<string, string>): Promise<ServerProcess> {
  const home = await mkdtemp(path.join(tmpdir(), 'ct-publisher-'));
  // A copy of the site under test: built for the same settings and sample, so no instance has to
  // build at start; approvals then rebuild the copy of whichever instance publishes.
  const siteDir = path.join(home, 'site');
  await cp(TEST_SITE.siteDir, siteDir, { recursive: true });
  return startServerProcess({ ...shared, DATA_DIR: path.join(home, 'data'), SITE_DIR: siteDir });
}

async function manifestVersion(server: ServerProcess): Promise<string | null> {
  const response = await fetch(`${baseOf(server)}/data/manifest.json`).catch(() => null);
  if (!response?.ok) return null;
  return ((await response.json()) as { version?: string }).version ?? null;
}

/** Polls until every server's first catalogue page holds `text` (bounded), then their versions. */
async function servedEverywhere(live: ServerProcess[], text: string, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const bodies = await Promise.all(
      live.map((server) =>
        fetch(`${baseOf(server)}/data/pages/all/1.json`).then(
          (response) => response.text(),
          () => '',
        ),
      ),
    );
    if (bodies.every((body) => body.includes(text))) break;
    if (Date.now() > deadline) throw new Error(`${text} did not reach every instance in time`);
    await sleep(250);
  }
  return Promise.all(live.map(async (server) => (await manifestVersion(server)) ?? ''));
}

async function publisherOf(live: ServerProcess[]): Promise<ServerProcess> {
  const { rows } = await client.query<{ holder: string }>(
    'select holder from publisher_lease where until > now()',
  );
  const holder = rows[0]?.holder ?? 'none';
  const found = live.find((server) =>
    server
      .output()
      .split('\n')
      .some((line) => line.includes(GAINED) && line.includes(holder)),
  );
  if (!found) throw new Error(`no live instance holds the lease (${holder})`);
  return found;
}

async function approveOne(server: ServerProcess): Promise<string> {
  const base = baseOf(server);
  await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  const queue = (await (await api(base, '/api/threads/pending-review', { cookie: admin })).json()) as {
    threads: { id: string; permalink: string }[];
  };
  const thread = queue.threads[0];
  if (!thread) throw new Error('the review queue is empty');
  const approved = await api(base, '/api/threads/approve', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread.id },
  });
  expect(approved.status).toBe(200);
  return thread.permalink;
}

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const shared = {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    TOKEN_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
  };
  servers = await Promise.all([1, 2, 3].map(() => startInstance(shared)));
  await Promise.all(servers.map((server) => waitUntilListening(server, 120_000)));
  const base = baseOf(servers[0] as ServerProcess);
  admin = await signInCurator(base);
  await settledRun(base, admin);
}, 180_000);

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
  await client?.end();
});

test('one instance publishes and all three serve the same version', async () => {
  const { rows } = await client.query<{ publishers: string }>(
    'select count(distinct publisher) as publishers from site_versions',
  );
  expect(Number(rows[0]?.publishers)).toBe(1);
  const gained = servers.filter((server) => server.output().includes(GAINED));
  expect(gained).toHaveLength(1);
  const versions = await Promise.all(servers.map(manifestVersion));
  expect(versions[0]).toBeTruthy();
  expect(new Set(versions).size).toBe(1);
});

test('an approval on any instance reaches all three as one new version', async () => {
  const publisher = await publisherOf(servers);
  const other = servers.find((server) => server !== publisher) as ServerProcess;
  const permalink = await approveOne(other);
  const versions = await servedEverywhere(servers, permalink, 240_000);
  expect(new Set(versions).size).toBe(1);
  const { rows } = await client.query<{ catalogue_version: string }>(
    'select catalogue_version from site_versions order by id desc limit 1',
  );
  expect(rows[0]?.catalogue_version).toBe(versions[0]);
}, 300_000);

test('when the publishing instance is killed, another takes over and publishes', async () => {
  const publisher = await publisherOf(servers);
  publisher.child.kill('SIGKILL');
  await publisher.exited;
  const live = servers.filter((server) => server !== publisher);
  const permalink = await approveOne(live[0] as ServerProcess);
  const versions = await servedEverywhere(live, permalink, 240_000);
  expect(new Set(versions).size).toBe(1);
  const successor = await publisherOf(live);
  expect(live).toContain(successor);
  expect(successor.output()).toContain(GAINED);
}, 300_000);
