import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TEST_SITE } from '../../site-under-test.ts';
import { buildTestApp } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// Built files are answered before Fastify's routing and hooks (the early path, over a real socket);
// app.inject() skips that path and goes through the Fastify route. Both must answer the same.
let app: FastifyInstance;
let base: string;
let log = '';
beforeAll(async () => {
  await resetDatabase(await testDatabase());
  app = await buildTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void (log += line) } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app.close());

/** Node's own headers, per socket and moment: not chosen by either path. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive']);

/** The headers both paths choose, by lower-case name. */
function chosenHeaders(headers: Record<string, string | string[] | number | undefined>) {
  return Object.fromEntries(
    Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), String(value)] as const)
      .filter(([name]) => !NODE_HEADERS.has(name)),
  );
}

async function overSocket(method: string, url: string, headers: Record<string, string>) {
  const response = await fetch(`${base}${url}`, { method, headers });
  // fetch decompresses br and gzip: compare bodies only for identity.
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: Object.fromEntries(response.headers), body };
}

async function script(): Promise<string> {
  const assets = await readdir(path.join(TEST_SITE.siteDir, '_astro'));
  return `/_astro/${assets.find((name) => name.endsWith('.js'))}`;
}

const ENCODINGS = [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip, br;q=0' }];

test('the early path answers with exactly the headers of the Fastify route', async () => {
  const urls = ['/', '/privacy/', '/terms', '/favicon.svg', '/data/manifest.json', await script()];
  for (const url of urls) {
    for (const headers of ENCODINGS) {
      for (const method of ['GET', 'HEAD']) {
        const full = await app.inject({ method: method as 'GET' | 'HEAD', url, headers });
        const early = await overSocket(method, url, {
          ...headers,
          'accept-encoding': headers['accept-encoding'] ?? 'identity',
        });
        const label = `${method} ${url} ${JSON.stringify(headers)}`;
        expect(early.status, label).toBe(full.statusCode);
        expect(chosenHeaders(early.headers), label).toEqual(chosenHeaders(full.headers));
        if (method === 'HEAD') expect(early.body.length, label).toBe(0);
      }
    }
  }
});

test('a matching If-None-Match (weak or strong) answers 304 on both paths, with the same headers', async () => {
  const first = await app.inject({ url: '/terms', headers: { 'accept-encoding': 'br' } });
  const etag = String(first.headers.etag);
  for (const tag of [etag, `W/${etag}`, `"other", ${etag}`]) {
    const headers = { 'accept-encoding': 'br', 'if-none-match': tag };
    const full = await app.inject({ url: '/terms', headers });
    const early = await overSocket('GET', '/terms', headers);
    expect(full.statusCode).toBe(304);
    expect(early.status).toBe(304);
    expect(early.body.length).toBe(0);
    expect(chosenHeaders(early.headers)).toEqual(chosenHeaders(full.headers));
  }
  expect((await overSocket('GET', '/terms', { 'if-none-match': etag })).status).toBe(200);
});

test('compressed bodies are the stored variants; identity is the file itself', async () => {
  const plain = await overSocket('GET', '/', { 'accept-encoding': 'identity' });
  const full = await app.inject({ url: '/', headers: { 'accept-encoding': 'identity' } });
  expect(plain.body.equals(full.rawPayload)).toBe(true);
});

test('built files skip the request log; unknown paths, the API and the 404 page go through Fastify', async () => {
  log = '';
  expect((await overSocket('GET', '/favicon.svg', {})).status).toBe(200);
  expect((await overSocket('HEAD', '/privacy', {})).status).toBe(200);
  expect(log).not.toContain('/favicon.svg');
  expect(log).not.toContain('/privacy');
  expect((await overSocket('GET', '/no-such-page', {})).status).toBe(404);
  expect((await overSocket('GET', '/404.html', {})).status).toBe(404);
  expect((await overSocket('GET', '/api/nothing', {})).status).toBe(404);
  expect((await overSocket('GET', '/%61pi/health', {})).status).toBe(200);
  expect((await overSocket('POST', '/favicon.svg', {})).status).toBe(404);
  expect(log).toContain('/no-such-page');
  expect(log).toContain('/favicon.svg');
  expect(log).toContain('/api/nothing');
});
