import { readdir, readFile } from 'node:fs/promises';
import { get } from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TEST_SITE } from '../../site-under-test.ts';
import { startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// Built files are answered before Fastify's routing and hooks (the early path, over a real socket);
// app.inject() skips that path and goes through the Fastify route. Both must answer the same.
let app: FastifyInstance;
let base: string;
let log = '';
beforeAll(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp(
    { LOG_LEVEL: 'info' },
    { logStream: { write: (line) => void (log += line) } },
  ));
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

/** A GET over a real socket, its body as sent (fetch would decompress it). */
function rawGet(url: string, acceptEncoding: string): Promise<{ encoding: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${base}${url}`, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          encoding: String(response.headers['content-encoding'] ?? ''),
          body: Buffer.concat(chunks),
        }),
      );
    }).on('error', reject);
  });
}

test("compressed bodies are the build's stored copies; identity is the file itself", async () => {
  const file = path.join(TEST_SITE.siteDir, 'index.html');
  const stored = {
    identity: await readFile(file),
    br: await readFile(`${file}.br`),
    gzip: await readFile(`${file}.gz`),
  };
  for (const [coding, onDisk] of Object.entries(stored)) {
    const early = await rawGet('/', coding);
    const full = await app.inject({ url: '/', headers: { 'accept-encoding': coding } });
    expect(early.encoding, coding).toBe(coding === 'identity' ? '' : coding);
    expect(early.body.equals(onDisk), coding).toBe(true);
    expect(full.rawPayload.equals(onDisk), coding).toBe(true);
  }
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
