import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runDeployCommand } from '../../../../../server/publisher/deploy/deploy-command.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ct-deploy-command-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function recorder() {
  const lines: string[] = [];
  const log = {
    info: (_object: object, message: string) => lines.push(`info ${message}`),
    warn: (_object: object, message: string) => lines.push(`warn ${message}`),
    error: (object: object, message: string) => lines.push(`error ${message} ${JSON.stringify(object)}`),
  };
  return { lines, log };
}

test('each output line is logged at info, stdout and stderr alike; exit 0 succeeds', async () => {
  const { lines, log } = recorder();
  const ok = await runDeployCommand('echo one; echo two >&2; printf "three"', {
    log,
    cwd: work,
    env: process.env,
  });
  expect(ok).toBe(true);
  expect(lines[0]).toBe('info Running DEPLOY_COMMAND...');
  expect(lines).toEqual(
    expect.arrayContaining([
      'info DEPLOY_COMMAND: one',
      'info DEPLOY_COMMAND: two',
      'info DEPLOY_COMMAND: three',
    ]),
  );
  expect(lines.at(-1)).toBe('info DEPLOY_COMMAND finished.');
});

test('a non-zero exit is logged as an error with its code; the command text is never logged', async () => {
  const { lines, log } = recorder();
  const ok = await runDeployCommand('SECRET_TOKEN=hunter2 sh -c "exit 3"', {
    log,
    cwd: work,
    env: process.env,
  });
  expect(ok).toBe(false);
  expect(lines.at(-1)).toBe('error DEPLOY_COMMAND failed (exit code 3). {"code":3,"signal":null}');
  expect(lines.join('\n')).not.toContain('hunter2');
});

test('it runs in the given folder with the given environment', async () => {
  const { log } = recorder();
  const ok = await runDeployCommand('pwd > where.txt; echo "$CATALOGUE_VERSION" >> where.txt', {
    log,
    cwd: work,
    env: { ...process.env, CATALOGUE_VERSION: 'abcd' },
  });
  expect(ok).toBe(true);
  expect(await readFile(path.join(work, 'where.txt'), 'utf8')).toBe(`${work}\nabcd\n`);
});

test('an abort (shutdown) kills the whole process group and is logged', async () => {
  const { lines, log } = recorder();
  const controller = new AbortController();
  const pidFile = path.join(work, 'child.pid');
  // The shell starts a child of its own: the stop must reach it too.
  const running = runDeployCommand(`sleep 300 & echo $! > ${pidFile}; echo started; wait`, {
    log,
    cwd: work,
    env: process.env,
    signal: controller.signal,
  });
  while (!lines.includes('info DEPLOY_COMMAND: started')) await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  expect(await running).toBe(false);
  expect(lines.at(-1)).toMatch(/^error DEPLOY_COMMAND was stopped: the server is shutting down\./);
  const child = Number(await readFile(pidFile, 'utf8'));
  // Gone, or a zombie waiting for init to reap it: either way it no longer runs. A process killed
  // a moment ago may still show as running while the kernel tears it down: wait (bounded) for that.
  const state = () =>
    readFile(`/proc/${child}/stat`, 'utf8').then(
      (stat) => stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3),
      () => 'gone',
    );
  const deadline = Date.now() + 5_000;
  while (!['gone', 'Z'].includes(await state()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(['gone', 'Z']).toContain(await state());
});

test('a command running past its timeout is stopped', async () => {
  const { lines, log } = recorder();
  const ok = await runDeployCommand('sleep 300', { log, cwd: work, env: process.env, timeoutMs: 50 });
  expect(ok).toBe(false);
  expect(lines.at(-1)).toMatch(/^error DEPLOY_COMMAND was stopped: it ran longer than/);
});
