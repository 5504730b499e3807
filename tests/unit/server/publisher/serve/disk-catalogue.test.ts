import { mkdir, mkdtemp, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { PUBLIC_CATALOGUE_FILE } from '../../../../../server/publisher/export/catalogue-files.ts';
import { writeIfChanged } from '../../../../../server/publisher/export/atomic-file.ts';
import { MEMORY_MAX_BYTES } from '../../../../../server/publisher/serve/catalogue-entry.ts';
import {
  DiskCatalogue,
  type CatalogueAnswer,
  type CatalogueRequest,
} from '../../../../../server/publisher/serve/disk-catalogue.ts';
import { catalogueCacheControl } from '../../../../../server/http/site-files.ts';

async function catalogueIn(dir?: string) {
  const root = dir ?? (await mkdtemp(path.join(tmpdir(), 'ct-disk-catalogue-')));
  const catalogue = new DiskCatalogue(root, {
    cacheControl: catalogueCacheControl,
    secure: false,
    include: (file) => PUBLIC_CATALOGUE_FILE.test(file),
  });
  return { root, catalogue };
}

const GET: CatalogueRequest = { method: 'GET', acceptEncoding: undefined, ifNoneMatch: undefined };
const withEncoding = (acceptEncoding: string): CatalogueRequest => ({ ...GET, acceptEncoding });

/** The whole body of an answer, read from memory or from its stream. */
async function bodyOf(answer: CatalogueAnswer | undefined): Promise<Buffer> {
  const body = answer?.body;
  if (body === undefined) throw new Error('no body');
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** JSON of `bytes` bytes or more that compresses (a catalogue file). */
function jsonOfSize(bytes: number, seed = 'a'): string {
  const cards: { id: string; text: string }[] = [];
  let length = 2;
  for (let i = 0; length < bytes; i++) {
    const card = { id: `${seed}-${i}`, text: `Card ${i} of ${seed}: typography and colour, ${i * 7}` };
    cards.push(card);
    length += JSON.stringify(card).length + 1;
  }
  return JSON.stringify(cards);
}

describe('a small file', () => {
  test('is answered per encoding from the siblings the export wrote, with headers that match', async () => {
    const { root, catalogue } = await catalogueIn();
    const body = jsonOfSize(20_000);
    await writeIfChanged(path.join(root, 'threads-text.json'), body);
    const br = await readFile(path.join(root, 'threads-text.json.br'));

    const plain = await catalogue.answer('/data/threads-text.json', GET);
    const brotli = await catalogue.answer('/data/threads-text.json', withEncoding('gzip, br'));
    const gzip = await catalogue.answer('/data/threads-text.json', withEncoding('gzip'));
    expect((await bodyOf(plain)).toString()).toBe(body);
    expect((await bodyOf(brotli)).equals(br)).toBe(true);
    expect(gunzipSync(await bodyOf(gzip)).toString()).toBe(body);
    for (const [answer, encoding] of [
      [plain, undefined],
      [brotli, 'br'],
      [gzip, 'gzip'],
    ] as const) {
      expect(answer?.status).toBe(200);
      expect(answer?.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-cache',
        vary: 'Accept-Encoding',
        'x-content-type-options': 'nosniff',
        'content-length': String((await bodyOf(answer)).length),
      });
      expect(answer?.headers['content-encoding']).toBe(encoding);
    }
    expect(new Set([plain, brotli, gzip].map((answer) => answer?.headers.etag)).size).toBe(3);
  });

  test('answers 304 to its ETag (weak too) without a body; HEAD gets the headers only', async () => {
    const { root, catalogue } = await catalogueIn();
    await writeIfChanged(path.join(root, 'manifest.json'), jsonOfSize(2_000));
    const first = await catalogue.answer('/data/manifest.json', withEncoding('br'));
    const etag = String(first?.headers.etag);
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await catalogue.answer('/data/manifest.json', {
        ...withEncoding('br'),
        ifNoneMatch: tag,
      });
      expect(again?.status).toBe(304);
      expect(again?.body).toBeUndefined();
      expect(again?.headers['content-length']).toBeUndefined();
      expect(again?.headers.etag).toBe(etag);
    }
    // Another encoding has another ETag: no 304 for the brotli tag when gzip is what is answered.
    expect(
      (await catalogue.answer('/data/manifest.json', { ...withEncoding('gzip'), ifNoneMatch: etag }))?.status,
    ).toBe(200);
    const head = await catalogue.answer('/data/manifest.json', { ...withEncoding('br'), method: 'HEAD' });
    expect(head?.headers).toEqual(first?.headers);
  });

  test('a folder written before the siblings existed is compressed in memory, once per version', async () => {
    const { root, catalogue } = await catalogueIn();
    const body = jsonOfSize(10_000);
    await writeFile(path.join(root, 'threads-all.json'), body);
    const brotli = await catalogue.answer('/data/threads-all.json', withEncoding('br'));
    expect(brotli?.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(await bodyOf(brotli)).toString()).toBe(body);
    await catalogue.answer('/data/threads-all.json', withEncoding('gzip'));
    expect(catalogue.stats.reads).toBe(1);
  });

  test('a sibling older than its file is stale and never answered', async () => {
    const { root, catalogue } = await catalogueIn();
    const file = path.join(root, 'threads-recent.json');
    await writeFile(`${file}.br`, brotliCompressSync(Buffer.from(jsonOfSize(3_000, 'old'))));
    await utimes(`${file}.br`, new Date('2026-01-01'), new Date('2026-01-01'));
    const body = jsonOfSize(3_000, 'new');
    await writeFile(file, body);
    const answer = await catalogue.answer('/data/threads-recent.json', withEncoding('br'));
    expect(brotliDecompressSync(await bodyOf(answer)).toString()).toBe(body);
  });
});

test('nothing is read until it is asked for, then each file once while it is unchanged', async () => {
  const { root, catalogue } = await catalogueIn();
  await mkdir(path.join(root, 'pages', 'all'), { recursive: true });
  for (let page = 1; page <= 200; page++)
    await writeFile(path.join(root, 'pages', 'all', `${page}.json`), jsonOfSize(600, String(page)));
  expect(catalogue.stats).toEqual({ reads: 0, cachedEntries: 0, cachedBytes: 0 });
  for (let i = 0; i < 5; i++) await catalogue.answer('/data/pages/all/7.json', withEncoding('br'));
  expect(catalogue.stats.reads).toBe(1);
  expect(catalogue.stats.cachedEntries).toBe(1);
  catalogue.clear();
  expect(catalogue.stats.cachedEntries).toBe(0);
});

test('a file an export changes is answered new at the next request; an ETag names one body only', async () => {
  const { root, catalogue } = await catalogueIn();
  const file = path.join(root, 'manifest.json');
  const bodies = new Map<string, string>();
  for (let version = 0; version < 20; version++) {
    const written = jsonOfSize(1_500 + version * 10, `v${version}`);
    await writeIfChanged(file, written);
    // No clear(): the file's version on disk is checked at every request.
    for (const encoding of ['identity', 'br', 'gzip']) {
      const answer = await catalogue.answer('/data/manifest.json', withEncoding(encoding));
      const raw = await bodyOf(answer);
      const text =
        encoding === 'br'
          ? brotliDecompressSync(raw).toString()
          : encoding === 'gzip'
            ? gunzipSync(raw).toString()
            : raw.toString();
      expect(text, `version ${version} ${encoding}`).toBe(written);
      expect(answer?.headers['content-length']).toBe(String(raw.length));
      const etag = String(answer?.headers.etag);
      expect(bodies.get(etag) ?? raw.toString('base64'), etag).toBe(raw.toString('base64'));
      bodies.set(etag, raw.toString('base64'));
    }
  }
  expect(bodies.size).toBe(60);
});

describe('a large file', () => {
  test('is streamed from disk, never held in the cache, with its length announced', async () => {
    const { root, catalogue } = await catalogueIn();
    const body = jsonOfSize(MEMORY_MAX_BYTES * 12);
    await writeIfChanged(path.join(root, 'threads-all.json'), body);
    for (const encoding of ['identity', 'br', 'gzip']) {
      const answer = await catalogue.answer('/data/threads-all.json', withEncoding(encoding));
      expect(Buffer.isBuffer(answer?.body), encoding).toBe(false);
      const raw = await bodyOf(answer);
      expect(answer?.headers['content-length']).toBe(String(raw.length));
      const onDisk = await readFile(
        path.join(
          root,
          `threads-all.json${encoding === 'identity' ? '' : encoding === 'br' ? '.br' : '.gz'}`,
        ),
      );
      expect(raw.equals(onDisk), encoding).toBe(true);
    }
    expect(catalogue.stats.cachedEntries).toBe(1);
    expect(catalogue.stats.cachedBytes).toBe(0);
    // HEAD opens nothing and still says how long the file is.
    const head = await catalogue.answer('/data/threads-all.json', { ...GET, method: 'HEAD' });
    expect(head?.body).toBeUndefined();
    expect(head?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  test('a stream opened before an export replaces the file delivers the old version whole', async () => {
    const { root, catalogue } = await catalogueIn();
    const file = path.join(root, 'threads-images.json');
    const old = jsonOfSize(MEMORY_MAX_BYTES * 3, 'old');
    await writeIfChanged(file, old);
    const answer = await catalogue.answer('/data/threads-images.json', GET);
    const fresh = jsonOfSize(MEMORY_MAX_BYTES * 4, 'new');
    await writeIfChanged(file, fresh);
    const raw = await bodyOf(answer);
    expect(raw.toString()).toBe(old);
    expect(answer?.headers['content-length']).toBe(String(raw.length));
    const next = await catalogue.answer('/data/threads-images.json', GET);
    expect((await bodyOf(next)).toString()).toBe(fresh);
    expect(next?.headers.etag).not.toBe(answer?.headers.etag);
  });
});

describe('only public files inside the folder', () => {
  test('names outside the catalogue pattern, dot segments and missing files are not answered', async () => {
    const { root, catalogue } = await catalogueIn();
    await writeFile(path.join(root, 'threads-pending-review.json'), '[{"secret":true}]');
    await writeFile(path.join(root, 'manifest.json'), '{}');
    await mkdir(path.join(root, 'pages', 'all'), { recursive: true });
    await writeFile(path.join(root, 'pages', '1.json'), '{}');
    for (const pathname of [
      '/data/threads-pending-review.json',
      '/data/manifest.json.br',
      '/data/pages/topics/../1.json',
      '/data/pages/topics/./../all/../1.json',
      '/data/../manifest.json',
      '/data/pages/all/2.json',
      '/data/search/\0.json',
      '/manifest.json',
    ]) {
      expect(await catalogue.answer(pathname, GET), pathname).toBeUndefined();
    }
    expect(catalogue.accepts('/data/pages/topics/../1.json')).toBe(false);
    expect((await catalogue.answer('/data/manifest.json', GET))?.status).toBe(200);
  });

  test('a link out of the folder is not followed, a link inside it is', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ct-outside-'));
    await writeFile(path.join(outside, 'secret.json'), '{"secret":true}');
    const { root, catalogue } = await catalogueIn();
    await mkdir(path.join(root, 'search'));
    await symlink(path.join(outside, 'secret.json'), path.join(root, 'search', 'index.json'));
    await symlink(outside, path.join(root, 'pages'));
    await writeFile(path.join(root, 'threads-all.json'), '[]');
    await symlink(path.join(root, 'threads-all.json'), path.join(root, 'threads-text.json'));
    expect(await catalogue.answer('/data/search/index.json', GET)).toBeUndefined();
    await mkdir(path.join(outside, 'all'));
    await writeFile(path.join(outside, 'all', '1.json'), '{"secret":true}');
    expect(await catalogue.answer('/data/pages/all/1.json', GET)).toBeUndefined();
    expect((await bodyOf(await catalogue.answer('/data/threads-text.json', GET))).toString()).toBe('[]');
  });

  test('a catalogue folder that is a link itself is served (a version switched by a link)', async () => {
    const real = await mkdtemp(path.join(tmpdir(), 'ct-catalogue-real-'));
    await writeFile(path.join(real, 'manifest.json'), '{"v":1}');
    const link = path.join(await mkdtemp(path.join(tmpdir(), 'ct-catalogue-link-')), 'current');
    await symlink(real, link);
    const { catalogue } = await catalogueIn(link);
    expect((await bodyOf(await catalogue.answer('/data/manifest.json', GET))).toString()).toBe('{"v":1}');
  });
});
