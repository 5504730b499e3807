import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, readlink, realpath, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeIfChanged } from '../../../../server/publisher/export/atomic-file.ts';
import { MEMORY_MAX_BYTES } from '../../../../server/publisher/serve/catalogue-entry.ts';
import { startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// The catalogue (/data) is answered from its folder on disk by the real app over a real socket (the
// early path) and through Fastify (app.inject): the two must agree, and neither reads at start.
let app: FastifyInstance;
let base: string;
let catalogueDir: string;
let outside: string;
beforeAll(async () => {
  await resetDatabase(await testDatabase());
  outside = await mkdtemp(path.join(tmpdir(), 'ct-served-catalogue-'));
  await writeFile(path.join(outside, 'secret.json'), '{"secret":true}');
  catalogueDir = path.join(outside, 'catalogue');
  ({ app, base } = await startApp({ CATALOGUE_DIR: catalogueDir }));
});
afterAll(() => app.close());

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request over a real socket, its body as sent (not decompressed), hashed while it streams in. */
function overSocket(method: string, url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // The path as given: a URL object would resolve dot segments before they reach the server.
    const { hostname, port } = new URL(base);
    const req = request({ hostname, port, path: url, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
          ),
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers either path chooses (Node adds its own per connection). */
function chosen(headers: Record<string, unknown>): Record<string, string> {
  const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !own.has(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
}

function decoded(raw: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return gunzipSync(raw).toString();
  return raw.toString();
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('start-up reads no catalogue file; the first request reads the one it asks for', async () => {
  expect(app.publisher.served.catalogue.stats).toEqual({ reads: 0, cachedEntries: 0, cachedBytes: 0 });
  expect((await overSocket('GET', '/data/manifest.json')).status).toBe(200);
  expect((await overSocket('GET', '/data/manifest.json', { 'accept-encoding': 'br' })).status).toBe(200);
  expect(app.publisher.served.catalogue.stats.reads).toBe(1);
});

test('the early path and the Fastify route answer /data alike: encodings, HEAD, 304', async () => {
  const urls = [
    '/data/manifest.json',
    '/data/threads-all.json',
    '/data/pages/all/1.json',
    '/data/search/index.json',
  ];
  for (const url of urls) {
    for (const encoding of ['identity', 'br', 'gzip, deflate', 'br;q=0, gzip']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const headers = { 'accept-encoding': encoding };
        const early = await overSocket(method, url, headers);
        const full = await app.inject({ method, url, headers });
        const label = `${method} ${url} ${encoding}`;
        expect(early.status, label).toBe(200);
        expect(full.statusCode, label).toBe(200);
        expect(chosen(early.headers), label).toEqual(chosen(full.headers));
        expect(early.headers['content-security-policy'], label).toContain("frame-ancestors 'none'");
        if (method === 'GET') {
          expect(early.body.equals(full.rawPayload), label).toBe(true);
          expect(early.headers['content-length'], label).toBe(String(early.body.length));
        } else expect(early.body.length, label).toBe(0);
      }
      const { headers } = await overSocket('GET', url, { 'accept-encoding': encoding });
      const again = { 'accept-encoding': encoding, 'if-none-match': headers.etag ?? '' };
      const early = await overSocket('GET', url, again);
      const full = await app.inject({ url, headers: again });
      expect([early.status, full.statusCode], url).toEqual([304, 304]);
      expect(early.body.length).toBe(0);
      expect(chosen(early.headers)).toEqual(chosen(full.headers));
    }
  }
});

test('a large file is streamed over the socket whole, with its length, and is not cached', async () => {
  const big = JSON.stringify(
    Array.from({ length: 120_000 }, (_, i) => ({ id: `big-${i}`, text: `card ${i} on type and colour` })),
  );
  expect(big.length).toBeGreaterThan(MEMORY_MAX_BYTES * 4);
  const file = path.join(catalogueDir, 'pages', 'all', '999.json');
  await writeIfChanged(file, big);
  for (const encoding of ['identity', 'br', 'gzip']) {
    const early = await overSocket('GET', '/data/pages/all/999.json', { 'accept-encoding': encoding });
    const full = await app.inject({
      url: '/data/pages/all/999.json',
      headers: { 'accept-encoding': encoding },
    });
    expect(early.headers['content-length']).toBe(String(early.body.length));
    expect(sha(early.body)).toBe(sha(full.rawPayload));
    expect(chosen(early.headers)).toEqual(chosen(full.headers));
    expect(decoded(early.body, early.headers['content-encoding'])).toBe(big);
  }
  const head = await app.inject({ method: 'HEAD', url: '/data/pages/all/999.json' });
  expect(head.headers['content-length']).toBe(String(Buffer.byteLength(big)));
  expect(app.publisher.served.catalogue.stats.cachedBytes).toBeLessThan(MEMORY_MAX_BYTES * 2);
});

/** How many of this process's open descriptors point at `file` (Linux). */
async function openDescriptors(file: string): Promise<number> {
  const links = await Promise.all(
    (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return links.filter((target) => target === file).length;
}

test('a client that goes away in the middle of a large file leaves no file open', async () => {
  const big = JSON.stringify(Array.from({ length: 150_000 }, (_, i) => ({ id: `gone-${i}`, n: i })));
  const file = path.join(catalogueDir, 'pages', 'all', '998.json');
  await writeIfChanged(file, big);
  const real = await realpath(file);
  const { hostname, port } = new URL(base);
  for (let i = 0; i < 8; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = request({ hostname, port, path: '/data/pages/all/998.json' }, (response) => {
        response.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (req.destroyed ? resolve() : reject(error)));
      req.end();
    });
  }
  const deadline = Date.now() + 10_000;
  while ((await openDescriptors(real)) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await openDescriptors(real)).toBe(0);
  // The server still answers the file whole afterwards.
  expect((await overSocket('GET', '/data/pages/all/998.json')).body.toString()).toBe(big);
});

test('while an export rewrites a file, every answer is one whole version and an ETag names one body', async () => {
  const file = path.join(catalogueDir, 'threads-recent.json');
  const versions = Array.from({ length: 12 }, (_, v) =>
    JSON.stringify(Array.from({ length: 400 + v * 37 }, (_, i) => ({ id: `v${v}-${i}` }))),
  );
  const initial = await readFile(file, 'utf8');
  const seen = new Map<string, string>();
  const answers: Promise<Raw>[] = [];
  for (const version of versions) {
    const writing = writeIfChanged(file, version);
    for (const encoding of ['identity', 'br', 'gzip'])
      answers.push(overSocket('GET', '/data/threads-recent.json', { 'accept-encoding': encoding }));
    await writing;
  }
  for (const answer of await Promise.all(answers)) {
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
    const text = decoded(answer.body, answer.headers['content-encoding']);
    // The export's own file (answered before the first rewrite landed) or one of the versions written here.
    expect([initial, ...versions]).toContain(text);
    const etag = answer.headers.etag ?? '';
    expect(seen.get(etag) ?? sha(answer.body), etag).toBe(sha(answer.body));
    seen.set(etag, sha(answer.body));
  }
  await app.publisher.reloadCatalogue();
  const last = await overSocket('GET', '/data/threads-recent.json');
  expect(last.body.toString()).toBe(versions.at(-1));
});

test('unknown, private and escaping paths under /data are a JSON 404 on both paths', async () => {
  await mkdir(path.join(catalogueDir, 'search'), { recursive: true });
  await writeFile(path.join(catalogueDir, 'threads-pending-review.json'), '[{"secret":true}]');
  for (const url of [
    '/data/missing.json',
    '/data/pages/all/12345.json',
    '/data/threads-pending-review.json',
    '/data/manifest.json.br',
    '/data/..%2Fsecret.json',
    '/data/%2e%2e/secret.json',
    '/data/pages/topics/..%2F..%2F..%2Fsecret/1.json',
    '/data/search/..%2F..%2Fsecret.json',
  ]) {
    const early = await overSocket('GET', url);
    const full = await app.inject({ url });
    expect([early.status, full.statusCode], url).toEqual([404, 404]);
    expect(JSON.parse(early.body.toString()), url).toEqual({
      detail: expect.stringContaining('Nothing here'),
    });
    expect(early.headers['x-content-type-options']).toBe('nosniff');
  }
});
