import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { startApp } from '../auth/helpers.ts';

const ADMIN = path.resolve(import.meta.dirname, '../../../scripts/admin.ts');

// `npm run admin -- check-live` against the simulated provider standing in for graph.threads.net:
// live mode, with the simulated app's id and secret (threads-api.md section 1, the app token).
let app: FastifyInstance;
let graph: string;
beforeAll(async () => {
  const started = await startApp();
  app = started.app;
  graph = `${started.base}/simulated-threads`;
});
afterAll(() => app.close());

async function checkLive(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, [ADMIN, 'check-live'], {
    env: {
      ...process.env,
      DATA_DIR: await mkdtemp(path.join(tmpdir(), 'ct-check-live-')),
      THREADS_MODE: 'live',
      THREADS_APP_ID: SIMULATED_APP.id,
      THREADS_GRAPH_BASE_URL: graph,
      SESSION_SECRET: 'a'.repeat(64),
      TOKEN_KEY: 'b'.repeat(64),
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, lines: output.trim().split('\n') };
}

test('check-live passes a live setup whose app credentials Threads accepts', async () => {
  const { code, lines } = await checkLive({
    THREADS_APP_SECRET: SIMULATED_APP.secret,
    PUBLIC_URL: 'https://curated.example',
  });
  expect(lines).toContain('ok   mode: live: sign-in and curation talk to Threads');
  expect(lines).toContain(
    'ok   redirect URIs: register exactly: https://curated.example/auth/callback and https://curated.example/callback',
  );
  expect(lines).toContain(`ok   app credentials: accepted by ${graph}`);
  expect(lines.at(-1)).toBe('Ready for a live Threads app.');
  expect(code).toBe(0);
});

test('check-live fails an http localhost address and a secret Threads refuses, printing no secret', async () => {
  const wrongSecret = 'wrong-secret-0123456789abcdef';
  const { code, lines } = await checkLive({
    THREADS_APP_SECRET: wrongSecret,
    PUBLIC_URL: 'http://localhost:4321',
  });
  expect(lines.filter((line) => line.startsWith('FAIL')).map((line) => line.split(':')[0])).toEqual([
    'FAIL public address',
    'FAIL redirect URIs',
    'FAIL app credentials',
  ]);
  expect(lines.join('\n')).toContain('Error validating client secret');
  expect(lines.join('\n')).not.toContain(wrongSecret);
  expect(code).toBe(1);
});
