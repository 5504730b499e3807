import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { ReviewThread } from '../../../../contract/review.ts';
import type { RetryPolicy } from '../../../../server/publisher/deploy/deploy-retry.ts';
import { api, signInCurator, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';
import { heldAnswer, startHookReceiver } from '../../helpers/hook-receiver.ts';

// The real app (SERVE_SITE=false: it exports the catalogue without building pages, as an API
// behind a CDN does) calls a real local receiver when the exported catalogue changes.

const SECRET_PATH = '/build_hooks/5ecre7-hook-token';
const SECRET_QUERY = 'trigger_title=private-title';
/** Retries without waiting: the backoff delays are injected, nothing here is timed. */
const instant = {
  delayMs: 0,
  wait: async () => {},
  retryPolicy: {
    maxAttempts: 4,
    attemptTimeoutMs: 10_000,
    baseDelayMs: 1,
    maxDelayMs: 1,
    totalBudgetMs: 60_000,
  } satisfies RetryPolicy,
};

let work: string;
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;
const apps: FastifyInstance[] = [];
const logLines: string[] = [];

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  work = await mkdtemp(path.join(tmpdir(), 'ct-site-deploy-'));
  receiver = await startHookReceiver();
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

afterAll(async () => {
  await receiver.close();
  await rm(work, { recursive: true, force: true });
});

async function start(env: Record<string, string>, dataDir = 'data') {
  const started = await startApp(
    {
      SERVE_SITE: 'false',
      DATA_DIR: path.join(work, dataDir),
      LOG_LEVEL: 'info',
      CURATION_KEYWORDS: 'typography',
      CURATION_TAGS: '',
      ...env,
    },
    { publishSite: true, logStream: { write: (line) => logLines.push(line) }, deploy: instant },
  );
  apps.push(started.app);
  return started;
}

const startWithHook = (dataDir?: string) =>
  start({ DEPLOY_HOOK_URL: `${receiver.origin}${SECRET_PATH}?${SECRET_QUERY}` }, dataDir);

/** Waits until the publisher and the deploy triggers have nothing running or queued. */
async function settled(app: FastifyInstance): Promise<void> {
  await app.publisher.settled();
  await app.publisher.deploy?.settled();
}

async function manifest(): Promise<{ version: string; generatedAt: string }> {
  return JSON.parse(await readFile(path.join(work, 'data/catalogue/manifest.json'), 'utf8'));
}

let queue: ReviewThread[] = [];
/** Approves the next thread of the review queue (filled by one curation run). */
async function approveNext(base: string, admin: string): Promise<void> {
  const thread = queue.shift();
  if (!thread) throw new Error('the review queue ran out');
  const body = { thread_id: thread.id };
  expect((await api(base, '/api/threads/approve', { method: 'POST', cookie: admin, body })).status).toBe(200);
}

test(
  'the first publish delivers the current catalogue once; the same content again, or a restart, makes no call',
  { tags: ['engine'] },
  async () => {
    const { app, base } = await startWithHook();
    await settled(app);
    expect(receiver.calls).toHaveLength(1);
    const [call] = receiver.calls;
    expect(call).toMatchObject({ method: 'POST', url: `${SECRET_PATH}?${SECRET_QUERY}` });
    expect(call?.contentType).toBe('application/json');
    expect(call?.body).toEqual({
      version: (await manifest()).version,
      generatedAt: (await manifest()).generatedAt,
    });

    // A publish that rewrites the same files, and a curation run that only fills the review queue.
    app.publisher.request();
    await settled(app);
    const admin = await signInCurator(base);
    expect((await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin })).status).toBe(200);
    await settled(app);
    const pending = await api(base, '/api/threads/pending-review', { cookie: admin });
    queue = ((await pending.json()) as { threads: ReviewThread[] }).threads;
    expect(queue.length).toBeGreaterThanOrEqual(10);
    expect(receiver.calls).toHaveLength(1);

    // What was delivered is recorded in the database: a restart (or another instance) does not repeat it.
    await app.close();
    const again = await startWithHook();
    await settled(again.app);
    expect(receiver.calls).toHaveLength(1);
  },
);

test('changes that land while a call runs are served by exactly one more call, with the final catalogue', async () => {
  const { app, base } = await startWithHook();
  const admin = await signInCurator(base);
  const first = heldAnswer();
  receiver.answer(first.answer);
  const before = receiver.calls.length;

  await approveNext(base, admin);
  await app.publisher.settled();
  await receiver.received(before + 1);
  const during = (await manifest()).version;
  // Three more approvals while the first call waits for its answer.
  for (let i = 0; i < 3; i++) {
    await approveNext(base, admin);
    await app.publisher.settled();
  }
  first.release(200);
  await settled(app);

  const calls = receiver.calls.slice(before);
  expect(calls).toHaveLength(2);
  expect(calls.map((c) => (c.body as { version: string }).version)).toEqual([
    during,
    (await manifest()).version,
  ]);
  expect(during).not.toBe((await manifest()).version);
});

test('a 500 is retried until the hook accepts; a 404 is not retried; the log shows the host, never the path or query', async () => {
  const { app, base } = await startWithHook();
  const admin = await signInCurator(base);
  let before = receiver.calls.length;
  receiver.answer(500, 503);
  await approveNext(base, admin);
  await settled(app);
  expect(receiver.calls.length - before).toBe(3);
  const { version } = await manifest();
  expect(receiver.calls.slice(before).map((c) => (c.body as { version: string }).version)).toEqual([
    version,
    version,
    version,
  ]);

  before = receiver.calls.length;
  receiver.answer(404);
  await approveNext(base, admin);
  await settled(app);
  expect(receiver.calls.length - before).toBe(1);
  // A failed delivery is tried again at the next publish, without a new change.
  app.publisher.request();
  await settled(app);
  expect(receiver.calls.length - before).toBe(2);

  const log = logLines.join('');
  const host = new URL(receiver.origin).host;
  expect(log).toContain('The deploy hook failed; retrying.');
  expect(log).toContain('"failure":"HTTP 500"');
  expect(log).toContain('"failure":"HTTP 404"');
  expect(log).toContain('The deploy hook accepted the rebuild.');
  expect(log).toContain(`"host":"${host}"`);
  expect(log).not.toContain('5ecre7');
  expect(log).not.toContain('build_hooks');
  expect(log).not.toContain('private-title');
});

test(
  'two instances on one database make one delivery per change between them',
  { tags: ['engine'] },
  async () => {
    const one = await startWithHook();
    const other = await startWithHook('other-instance');
    await settled(one.app);
    await settled(other.app);
    const before = receiver.calls.length;
    const admin = await signInCurator(one.base);
    await approveNext(one.base, admin);
    // On PostgreSQL the other instance hears of the change at once (LISTEN, decision 030) and publishes
    // too: whichever takes the delivery's lease first delivers, so wait for the one delivery, then
    // for both instances to be idle.
    await expect.poll(() => receiver.calls.length - before, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await settled(one.app);
    await settled(other.app);
    expect(receiver.calls.length - before).toBe(1);
    // The other instance exports the same change at its next publish tick: its own files change, but
    // the database says this content was delivered.
    other.app.publisher.request();
    await settled(other.app);
    expect(receiver.calls.length - before).toBe(1);
  },
);

test('DEPLOY_COMMAND runs once per burst, its output logged line by line; a failing one is logged with its code', async () => {
  const runs = path.join(work, 'runs.txt');
  const go = path.join(work, 'go');
  const fail = path.join(work, 'fail');
  // Each run records the version it saw, then waits for the test's go-ahead (held like the hook above).
  const command = [
    `echo "$CATALOGUE_VERSION" >> "${runs}"`,
    'echo "uploading dist"',
    `while [ ! -e "${go}" ]; do sleep 0.02; done`,
    `test ! -e "${fail}"`,
  ].join('; ');
  const { app, base } = await start({ DEPLOY_COMMAND: command });
  const admin = await signInCurator(base);
  const lines = async () => (await readFile(runs, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  // The first publish after start delivers; approvals while it runs make one more run, not three.
  while ((await lines()).length < 1) await new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < 2; i++) {
    await approveNext(base, admin);
    await app.publisher.settled();
  }
  await writeFile(go, '');
  await settled(app);
  expect((await lines()).length).toBe(2);
  expect((await lines())[1]).toBe((await manifest()).version);
  expect(logLines.join('')).toContain('DEPLOY_COMMAND: uploading dist');

  await writeFile(fail, '');
  await approveNext(base, admin);
  await settled(app);
  expect((await lines()).length).toBe(3);
  const failure = logLines
    .map((line) => JSON.parse(line) as { level: number; msg: string; code?: number })
    .find((entry) => entry.msg === 'DEPLOY_COMMAND failed (exit code 1).');
  expect(failure).toMatchObject({ level: 50, code: 1 });
});
