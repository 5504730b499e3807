import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentTypeFor } from './content-types.ts';
import { fileResponses, type FileParts, type FileResponses } from './file-responses.ts';
import { BEST, compressBoth } from '../../http/compression.ts';
import { COMPRESSIBLE, THREAD_TEMPLATE_FILE } from '../../http/site-files.ts';
import { pageCsp } from '../../http/page-csp.ts';
import { visibleFilesUnder } from '../export/files-under.ts';

// Brotli at quality 11 is slow on very large files; a built site without its .br copies gets a faster level for them.
const MAX_BEST_BROTLI_BYTES = 1024 * 1024;

/** One file held in memory, with its compressed variants and the answers (headers included) it is served with. */
export interface StaticFile extends FileParts {
  responses: FileResponses;
}

export interface StoreOptions {
  /** The Cache-Control value for a file, by its URL path. */
  cacheControl(urlPath: string): string;
  secure: boolean;
  /** The API's origin when the pages call it on another one (API_BASE_URL): their CSP lets them connect. */
  apiOrigin?: string | undefined;
  /** Only files whose path (relative to the folder) passes are loaded; default: every file. */
  include?(relativePath: string): boolean;
  /** Folders (relative paths) never listed, let alone loaded: default none. */
  skipFolder?(relativeFolder: string): boolean;
  /** Take a file's `.br`/`.gz` siblings (written by the site build) instead of compressing it again. */
  precompressed?: boolean;
}

/** Files read and compressed at once: a site of thousands of files must not run out of descriptors. */
const LOAD_CONCURRENCY = 64;

/** A file's `.br` and `.gz` siblings, or null unless both are there. */
async function readPrecompressed(file: string): Promise<{ br: Buffer; gz: Buffer } | null> {
  const [br, gz] = await Promise.all([
    readFile(`${file}.br`).catch(() => null),
    readFile(`${file}.gz`).catch(() => null),
  ]);
  return br && gz ? { br, gz } : null;
}

async function loadFile(
  file: string,
  urlPath: string,
  options: StoreOptions,
  previous: StaticFile | undefined,
): Promise<StaticFile> {
  const body = await readFile(file);
  const ext = path.extname(file).toLowerCase();
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  // An unchanged file keeps its compressed variants: a reload only compresses what changed.
  if (previous?.etag === etag) return previous;
  let br: Buffer | undefined;
  let gz: Buffer | undefined;
  const compressible = COMPRESSIBLE.has(ext) && body.length > 256;
  // Only a compressible file has copies: no failed opens for images and tiny files at every load.
  const ready = compressible && options.precompressed ? await readPrecompressed(file) : null;
  if (ready) {
    [br, gz] = [
      ready.br.length < body.length ? ready.br : undefined,
      ready.gz.length < body.length ? ready.gz : undefined,
    ];
  } else if (compressible) {
    const quality = body.length > MAX_BEST_BROTLI_BYTES ? 6 : BEST.brotli;
    const { br: brBody, gz: gzBody } = await compressBoth(body, { brotli: quality, gzip: BEST.gzip });
    // Keep a variant only when it actually saves bytes.
    br = brBody.length < body.length ? brBody : undefined;
    gz = gzBody.length < body.length ? gzBody : undefined;
  }
  const parts: FileParts = {
    body,
    br,
    gzip: gz,
    etag,
    contentType: contentTypeFor(file),
    cacheControl: options.cacheControl(urlPath),
    csp:
      ext === '.html'
        ? pageCsp(body.toString('utf8'), { secure: options.secure, apiOrigin: options.apiOrigin })
        : undefined,
  };
  return { ...parts, responses: fileResponses(parts, options.secure) };
}

/** A folder loaded whole into memory at start (the built site), answering lookups by URL path. */
export class StaticStore {
  readonly #files: Map<string, StaticFile>;

  private constructor(files: Map<string, StaticFile>) {
    this.#files = files;
  }

  /**
   * Reads and precompresses every file under `dir` (dot-files skipped), mounted at `urlPrefix`.
   * Files identical to those of `previous` (a reload) are taken from it as they are.
   */
  static async load(
    dir: string,
    urlPrefix: string,
    options: StoreOptions,
    previous?: StaticStore | null,
  ): Promise<StaticStore> {
    const files = new Map<string, StaticFile>();
    const include = options.include ?? (() => true);
    await access(dir); // a missing site is an error here, not an empty one
    // Relative paths with `/` separators: dot-files and skipped folders are never listed.
    const paths = (await visibleFilesUnder(dir, options.skipFolder)).filter((relative) => include(relative));
    for (let start = 0; start < paths.length; start += LOAD_CONCURRENCY) {
      const loaded = await Promise.all(
        paths.slice(start, start + LOAD_CONCURRENCY).map(async (relative) => {
          const urlPath = `${urlPrefix}/${relative}`;
          const file = path.join(dir, ...relative.split('/'));
          return [urlPath, await loadFile(file, urlPath, options, previous?.get(urlPath))] as const;
        }),
      );
      for (const [urlPath, entry] of loaded) files.set(urlPath, entry);
    }
    return new StaticStore(files);
  }

  /** The file for an exact URL path (`/privacy/index.html`). */
  get(urlPath: string): StaticFile | undefined {
    return this.#files.get(urlPath);
  }

  /**
   * The file a browser path means: itself, its folder's index.html, or `path.html`. The not-found
   * page and the thread template are never a match: asking for them by name must still answer 404.
   */
  resolve(pathname: string): StaticFile | undefined {
    const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
    if (trimmed === '/404' || trimmed === '/404.html') return undefined;
    if (trimmed === '/') return this.#files.get('/index.html');
    const file =
      this.#files.get(trimmed) ??
      this.#files.get(`${trimmed}/index.html`) ??
      this.#files.get(`${trimmed}.html`);
    return file && file === this.#files.get(`/${THREAD_TEMPLATE_FILE}`) ? undefined : file;
  }
}
