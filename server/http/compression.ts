// The site's one way to compress: every copy the build, the export and the server write or send.
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, createBrotliCompress, createGzip, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compression levels: a brotli quality and a gzip level. */
export interface Levels {
  brotli: number;
  gzip: number;
}

/**
 * The quick levels for what is compressed often or in bulk: catalogue files, the pages every
 * publish renders or a request fills (decision 043). A few percent larger than the best levels, at
 * a small fraction of the time.
 */
export const QUICK: Levels = { brotli: 5, gzip: 6 };
/** The best levels, for files compressed once per build (the built site's assets and pages). */
export const BEST: Levels = { brotli: zlib.BROTLI_MAX_QUALITY, gzip: 9 };

/** `body` in brotli at `quality`, told its size (a better window for small files). */
export function brotliBytes(body: Buffer, quality: number): Promise<Buffer> {
  return brotli(body, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

/** `body` in gzip at `level`. */
export function gzipBytes(body: Buffer, level: number): Promise<Buffer> {
  return gzipAsync(body, { level });
}

/** Both copies of `body` at once. */
export async function compressBoth(body: Buffer, levels: Levels): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([brotliBytes(body, levels.brotli), gzipBytes(body, levels.gzip)]);
  return { br, gz };
}

/** Streams that compress as the quick levels do, for files too large to hold (`size`: its length). */
export const quickStreams = {
  brotli: (size: number) =>
    createBrotliCompress({
      params: { [zlib.BROTLI_PARAM_QUALITY]: QUICK.brotli, [zlib.BROTLI_PARAM_SIZE_HINT]: size },
    }),
  gzip: () => createGzip({ level: QUICK.gzip }),
};
