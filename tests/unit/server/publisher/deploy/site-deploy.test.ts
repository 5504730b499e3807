import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import {
  createSiteDeploy,
  readExportedContent,
  type DeployTarget,
  type ExportedContent,
  type JobLock,
} from '../../../../../server/publisher/deploy/site-deploy.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** A target that records what it delivered; `outcomes` decides each delivery's success (default: true). */
function recordingTarget(name: string, outcomes: boolean[] = []) {
  const delivered: string[] = [];
  const target: DeployTarget = {
    name,
    identity: 'abc',
    deliver: async (content) => {
      delivered.push(content.key);
      return outcomes.shift() ?? true;
    },
  };
  return { target, delivered };
}

function memoryStore() {
  const values = new Map<string, string>();
  return {
    values,
    get: async (key: string) => values.get(key) ?? null,
    set: async (key: string, value: string) => void values.set(key, value),
  };
}

const freeLock: JobLock = async (_name, job) => ({ ran: true, result: await job() });

function setup(targets: DeployTarget[], store = memoryStore(), lock = freeLock) {
  let content: ExportedContent = { key: 'v1', version: 'v1', generatedAt: null };
  const deploy = createSiteDeploy({ targets, readContent: async () => content, lock, store, log: silent });
  return {
    deploy,
    store,
    setContent: (key: string) => (content = { key, version: key, generatedAt: null }),
  };
}

test('the first publish delivers; an unchanged export does not; a change does, to every target', async () => {
  const hook = recordingTarget('hook');
  const command = recordingTarget('command');
  const { deploy, setContent } = setup([hook.target, command.target]);
  deploy.afterPublish(false);
  await deploy.settled();
  deploy.afterPublish(false);
  await deploy.settled();
  expect(hook.delivered).toEqual(['v1']);
  setContent('v2');
  deploy.afterPublish(true);
  await deploy.settled();
  expect(hook.delivered).toEqual(['v1', 'v2']);
  expect(command.delivered).toEqual(['v1', 'v2']);
});

test('a change reported again with the same content (another instance, a restart) makes no delivery', async () => {
  const store = memoryStore();
  const first = recordingTarget('hook');
  const one = setup([first.target], store);
  one.deploy.afterPublish(true);
  await one.deploy.settled();
  const second = recordingTarget('hook');
  const other = setup([second.target], store);
  other.deploy.afterPublish(true);
  await other.deploy.settled();
  expect(first.delivered).toEqual(['v1']);
  expect(second.delivered).toEqual([]);
  expect([...store.values.keys()]).toEqual(['deployed:hook:abc']);
});

test('a failed delivery is tried again at the next publish, even without a change', async () => {
  const hook = recordingTarget('hook', [false, true]);
  const { deploy } = setup([hook.target]);
  deploy.afterPublish(true);
  await deploy.settled();
  deploy.afterPublish(false);
  await deploy.settled();
  deploy.afterPublish(false);
  await deploy.settled();
  expect(hook.delivered).toEqual(['v1', 'v1']);
});

test('when another instance holds the lock nothing is delivered here, and it is checked again next time', async () => {
  const hook = recordingTarget('hook');
  let held = true;
  const lock: JobLock = async (name, job) => (held ? { ran: false } : freeLock(name, job));
  const { deploy } = setup([hook.target], memoryStore(), lock);
  deploy.afterPublish(true);
  await deploy.settled();
  expect(hook.delivered).toEqual([]);
  held = false;
  deploy.afterPublish(false);
  await deploy.settled();
  expect(hook.delivered).toEqual(['v1']);
});

test('close aborts a delivery that outlasts the grace period, and refuses new ones', async () => {
  let aborted = false;
  let started = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const slow: DeployTarget = {
    name: 'command',
    identity: 'x',
    deliver: (_content, signal) =>
      new Promise<boolean>((resolve) => {
        started();
        signal.addEventListener('abort', () => {
          aborted = true;
          resolve(false);
        });
      }),
  };
  const { deploy } = setup([slow]);
  deploy.afterPublish(true);
  await running;
  await deploy.close(0);
  expect(aborted).toBe(true);
  deploy.afterPublish(true);
  await deploy.settled();
});

test('the content key follows the manifest version and the exported profiles', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-exported-'));
  try {
    const profiles = path.join(dir, 'profiles.json');
    const manifest = (version: string) =>
      writeFile(
        path.join(dir, 'manifest.json'),
        JSON.stringify({
          generatedAt: '2026-11-23T10:00:00.000Z',
          nextUpdate: '2026-11-23T11:00:00.000Z',
          version,
        }),
      );
    await manifest('aaaa');
    const first = await readExportedContent(dir, profiles);
    expect(first).toMatchObject({ version: 'aaaa', generatedAt: '2026-11-23T10:00:00.000Z' });
    // No profiles file and an empty list are the same content.
    await writeFile(profiles, '[]\n');
    expect((await readExportedContent(dir, profiles)).key).toBe(first.key);
    await writeFile(profiles, '[{"username":"pat"}]\n');
    const withProfile = await readExportedContent(dir, profiles);
    expect(withProfile.key).not.toBe(first.key);
    await manifest('bbbb');
    expect((await readExportedContent(dir, profiles)).key).not.toBe(withProfile.key);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
