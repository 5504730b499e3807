/**
 * `node tests/e2e-servers.ts`: the browser tests' one web server entry (playwright.config.ts). It
 * starts every server named in E2E_SERVERS (JSON, `LaunchedServer[]`) at once and, when each one's
 * URL answers, listens on E2E_READY_PORT so that Playwright knows all are up. Playwright starts the
 * entries of its `webServer` list one after another, waiting for each: ten servers that each build
 * a site took two minutes in a row (decision 071). A server that exits before it is ready stops the
 * launcher with its name; Playwright's stop (it kills this process group) stops them all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LaunchedServer } from './site-under-test.ts';

/** Whether `url` answers as Playwright counts a web server ready: any status below 404. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.status < 404;
  } catch {
    return false;
  }
}

/** Resolves when `server` answers; rejects when its process ends first. */
async function ready(server: LaunchedServer, child: ChildProcess): Promise<void> {
  const ended: { how?: string } = {};
  child.once('exit', (code, signal) => (ended.how = signal ?? `code ${code}`));
  for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
    if (ended.how)
      throw new Error(
        `The ${server.name} server (${server.command}) exited (${ended.how}) before it was ready.`,
      );
    if (await answers(server.url)) return;
    await sleep(wait);
  }
}

/** Starts one server, its output passed through with its name in front of each line. */
function start(server: LaunchedServer): ChildProcess {
  const child = spawn('/bin/sh', ['-c', server.command], {
    env: { ...process.env, ...server.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    let rest = '';
    from.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) to.write(`[${server.name}] ${line}\n`);
    });
  }
  return child;
}

const servers = JSON.parse(process.env.E2E_SERVERS ?? '[]') as LaunchedServer[];
const readyPort = Number(process.env.E2E_READY_PORT);
if (!Number.isInteger(readyPort) || servers.length === 0) {
  console.error('usage: E2E_SERVERS=<json list> E2E_READY_PORT=<port> node tests/e2e-servers.ts');
  process.exit(2);
}
const startedAt = performance.now();
const children = servers.map((server) => start(server));
try {
  await Promise.all(servers.map((server, i) => ready(server, children[i] as ChildProcess)));
} catch (error) {
  console.error((error as Error).message);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
}
console.log(
  `${servers.length} servers ready after ${((performance.now() - startedAt) / 1000).toFixed(0)} s: ${servers.map((server) => server.name).join(', ')}`,
);
createServer((_request, response) => response.end('ready')).listen(readyPort, '127.0.0.1');
// A server that stops while the tests run is a failure the tests will show; say which one it was.
servers.forEach((server, i) =>
  children[i]?.once('exit', (code, signal) =>
    console.error(`The ${server.name} server stopped (${signal ?? `code ${code}`}).`),
  ),
);
