import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BoundedCache } from './bounded-cache.ts';
import { openVariant, readEntry, versionOf, type CatalogueEntry } from './catalogue-entry.ts';
import { chooseResponse, matchesETag } from './file-responses.ts';

/** How many files' headers (and small bodies) are kept, and the bytes of bodies at most. */
export const CATALOGUE_CACHE = { maxEntries: 4096, maxBytes: 24 * 1024 * 1024 };

/** Tries at answering a file that keeps being replaced between its headers and its opening. */
const ATTEMPTS = 3;

export interface DiskCatalogueOptions {
  /** The Cache-Control value for a file, by its URL path. */
  cacheControl(urlPath: string): string;
  secure: boolean;
  /** Only files whose path (relative to the folder, `/`-separated) passes are served. */
  include(relativePath: string): boolean;
}

/** What the request asks beyond its path. */
export interface CatalogueRequest {
  method: 'GET' | 'HEAD';
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
}

/** An answer, the same for the early path and the Fastify route. */
export interface CatalogueAnswer {
  status: 200 | 304;
  headers: Readonly<Record<string, string>>;
  /** A 200's body to a GET: in memory, or a stream of the file on disk; none for HEAD and 304. */
  body: Buffer | Readable | undefined;
}

const PREFIX = '/data/';

/**
 * The public catalogue served from its folder on disk (decision 034): nothing is read at start; a
 * file is read on its first request, its headers computed once per version and kept in a bounded
 * cache with its body when small; large files are streamed. Every request checks the file's
 * version with one stat, so what is answered is what is on disk, whoever wrote it.
 */
export class DiskCatalogue {
  readonly #dir: string;
  readonly #options: DiskCatalogueOptions;
  readonly #cache = new BoundedCache<CatalogueEntry>(CATALOGUE_CACHE);
  /** Versions being read now, by path and version: a crowd on a new file reads it once. */
  readonly #loading = new Map<string, Promise<CatalogueEntry | null>>();
  #root: string | null = null;
  #reads = 0;

  constructor(dir: string, options: DiskCatalogueOptions) {
    this.#dir = dir;
    this.#options = options;
  }

  /** Whether a decoded path may name a public catalogue file (it may still be missing). */
  accepts(pathname: string): boolean {
    if (!pathname.startsWith(PREFIX)) return false;
    const relative = pathname.slice(PREFIX.length);
    // The name pattern already keeps to the folder; no dot segments or NULs even so.
    if (relative.includes('\0') || relative.split('/').some((part) => part === '..' || part === '.'))
      return false;
    return this.#options.include(relative);
  }

  /** The answer to a request for `pathname`, or undefined when there is no such public file (404). */
  async answer(pathname: string, request: CatalogueRequest): Promise<CatalogueAnswer | undefined> {
    if (!this.accepts(pathname)) return undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const entry = await this.#entry(pathname);
      if (!entry) return undefined;
      const chosen = chooseResponse(entry, request.acceptEncoding);
      if (matchesETag(request.ifNoneMatch, chosen.etag))
        return { status: 304, headers: chosen.notModified, body: undefined };
      if (request.method === 'HEAD' || chosen.body)
        return { status: 200, headers: chosen.headers, body: chosen.body };
      const stream = await openVariant(chosen);
      if (stream) return { status: 200, headers: chosen.headers, body: stream };
      // Replaced since its headers were computed: forget them and look again.
      this.#cache.delete(pathname);
    }
    throw new Error(`${pathname} kept changing while it was being answered`);
  }

  /** Drops every cached entry (after an export) and resolves the folder again (it may be a new link). */
  clear(): void {
    this.#cache.clear();
    this.#root = null;
  }

  /** For tests and the bench: files read from disk so far, and what the cache holds. */
  get stats(): { reads: number; cachedEntries: number; cachedBytes: number } {
    const { entries, bytes } = this.#cache.size;
    return { reads: this.#reads, cachedEntries: entries, cachedBytes: bytes };
  }

  async #rootDir(): Promise<string | null> {
    this.#root ??= await realpath(this.#dir).catch(() => null);
    return this.#root;
  }

  async #entry(pathname: string): Promise<CatalogueEntry | null> {
    const file = path.join(this.#dir, ...pathname.slice(PREFIX.length).split('/'));
    const stats = await stat(file, { bigint: true }).catch(() => null);
    if (!stats?.isFile()) return null;
    const version = versionOf(stats);
    const cached = this.#cache.get(pathname);
    if (cached?.version === version) return cached;
    const key = `${pathname}\n${version}`;
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#read(pathname, file).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  async #read(pathname: string, file: string): Promise<CatalogueEntry | null> {
    const root = await this.#rootDir();
    if (root === null) return null;
    this.#reads += 1;
    const entry = await readEntry(root, file, {
      cacheControl: this.#options.cacheControl(pathname),
      secure: this.#options.secure,
    });
    if (entry) this.#cache.set(pathname, entry, entry.bytes);
    return entry;
  }
}
