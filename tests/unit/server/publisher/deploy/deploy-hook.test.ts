import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { callDeployHook } from '../../../../../server/publisher/deploy/deploy-hook.ts';
import type { RetryPolicy } from '../../../../../server/publisher/deploy/deploy-retry.ts';
import { freePort } from '../../../../../scripts/free-port.ts';

/** Each call is answered by the next handler (a 200 once they run out). */
const handlers: ((response: ServerResponse) => void)[] = [];
let calls = 0;
const server = createServer((request, response) => {
  calls += 1;
  request.resume();
  request.on('end', () => (handlers.shift() ?? ((r) => r.writeHead(200).end()))(response));
});
let url: URL;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/t0ken`);
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const policy: RetryPolicy = {
  maxAttempts: 3,
  attemptTimeoutMs: 200,
  baseDelayMs: 10,
  maxDelayMs: 5_000,
  totalBudgetMs: 60_000,
};

function harness() {
  const waits: number[] = [];
  const lines: string[] = [];
  const log = {
    info: (o: object, m: string) => lines.push(`info ${m} ${JSON.stringify(o)}`),
    warn: (o: object, m: string) => lines.push(`warn ${m} ${JSON.stringify(o)}`),
    error: (o: object, m: string) => lines.push(`error ${m} ${JSON.stringify(o)}`),
  };
  const wait = async (ms: number) => void waits.push(ms);
  return { waits, lines, options: { log, policy, wait } };
}
const body = { version: 'v1', generatedAt: '2026-11-23T10:00:00.000Z' };

test('a 429 waits as long as its Retry-After asks, then succeeds', async () => {
  const { waits, lines, options } = harness();
  calls = 0;
  handlers.push((r) => r.writeHead(429, { 'retry-after': '2' }).end());
  expect(await callDeployHook(url, body, options)).toBe(true);
  expect(calls).toBe(2);
  expect(waits).toEqual([2_000]);
  expect(lines.join('\n')).not.toContain('t0ken');
});

test('an attempt that gets no answer in time is retried', async () => {
  const { lines, options } = harness();
  calls = 0;
  handlers.push(() => {}); // never answers
  expect(await callDeployHook(url, body, options)).toBe(true);
  expect(calls).toBe(2);
  expect(lines[0]).toContain('"failure":"no answer in time"');
});

test('a redirect is neither followed nor retried', async () => {
  const { lines, options } = harness();
  calls = 0;
  handlers.push((r) => r.writeHead(308, { location: 'https://elsewhere.example/' }).end());
  expect(await callDeployHook(url, body, options)).toBe(false);
  expect(calls).toBe(1);
  expect(lines.at(-1)).toContain('"failure":"HTTP 308"');
});

test('a refused connection is retried until the attempts run out, then logged as an error', async () => {
  const { waits, lines, options } = harness();
  const closed = new URL(`http://127.0.0.1:${await freePort()}/hooks/t0ken`);
  expect(await callDeployHook(closed, body, options)).toBe(false);
  expect(waits).toHaveLength(2);
  expect(lines.at(-1)).toMatch(/^error The deploy hook failed; it is tried again at the next publish\./);
  expect(lines.at(-1)).toContain('"code":"ECONNREFUSED"');
  expect(lines.join('\n')).not.toContain('t0ken');
});

test('a shutdown stops the retries', async () => {
  const { options } = harness();
  calls = 0;
  const controller = new AbortController();
  handlers.push((r) => {
    controller.abort();
    r.writeHead(503).end();
  });
  expect(await callDeployHook(url, body, { ...options, signal: controller.signal })).toBe(false);
  expect(calls).toBe(1);
});
