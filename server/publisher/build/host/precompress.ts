import { readFile, writeFile } from 'node:fs/promises';
import { linkOrCopy } from '../../export/atomic-file.ts';
import path from 'node:path';
import { visibleFilesUnder } from '../../export/files-under.ts';
import { BEST, compressBoth, QUICK } from '../../../http/compression.ts';
import { COMPRESSIBLE } from '../../../http/site-files.ts';

/** Files compressed at once. */
const CONCURRENCY = 16;
// Brotli 11 is slow on large files and thousands of catalogue pages: those get a quicker level.
const BEST_BROTLI_MAX_BYTES = 256 * 1024;

async function sameBytes(a: Buffer, file: string): Promise<boolean> {
  const b = await readFile(file).catch(() => null);
  return b !== null && a.equals(b);
}

// The pages a publish renders again (decision 043) change with every approval: brotli 11 takes ~80 ms
// for the 64 KB home page, 5 about 1 ms for 12% more bytes (10.1 KB against 11.3 KB).
const CHANGING_PAGE_BROTLI = 5;

/**
 * Writes `file.br` and `file.gz`, or links them from `previous` when it holds the same file and both
 * copies (never written in place after, so a link is as good as a copy). `changing` files get a quicker brotli.
 */
async function compressOne(
  dir: string,
  relative: string,
  previousDir: string | undefined,
  changing: boolean,
): Promise<void> {
  const file = path.join(dir, relative);
  const body = await readFile(file);
  if (previousDir) {
    const old = path.join(previousDir, relative);
    const reusable =
      (await sameBytes(body, old)) &&
      (
        await Promise.all(
          [`${old}.br`, `${old}.gz`].map((f) =>
            readFile(f).then(
              () => true,
              () => false,
            ),
          ),
        )
      ).every(Boolean);
    if (reusable) {
      await Promise.all([linkOrCopy(`${old}.br`, `${file}.br`), linkOrCopy(`${old}.gz`, `${file}.gz`)]);
      return;
    }
  }
  // The catalogue copy can be thousands of files (12,775 at 100k threads): quicker levels, as the
  // server uses for its live catalogue; they cost a few percent in size.
  const quick = body.length > BEST_BROTLI_MAX_BYTES || relative.startsWith('data/');
  const quality = quick ? QUICK.brotli : changing ? CHANGING_PAGE_BROTLI : BEST.brotli;
  const { br, gz } = await compressBoth(body, { brotli: quality, gzip: quick ? QUICK.gzip : BEST.gzip });
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file under `dir`, for
 * nginx `gzip_static` and CDNs that serve precompressed files. Files unchanged since `previousDir`
 * (the site this build replaces) take its copies instead of being compressed again. Files under
 * `skipFolder` (the catalogue, which brings the export's own copies) are left alone; `changing` ones
 * (the pages every publish renders) get a quicker brotli level. Returns how many files it compressed
 * or reused.
 */
export async function precompressSite(
  dir: string,
  previousDir?: string,
  {
    skipFolder,
    changing = () => false,
  }: {
    skipFolder?: (relativeFolder: string) => boolean;
    changing?: ((file: string) => boolean) | undefined;
  } = {},
): Promise<number> {
  // A skipped folder is not even listed (the catalogue's copy: hundreds of thousands of files at 1M).
  const files = (await visibleFilesUnder(dir, skipFolder)).filter((file) =>
    COMPRESSIBLE.has(path.posix.extname(file).toLowerCase()),
  );
  for (let start = 0; start < files.length; start += CONCURRENCY) {
    await Promise.all(
      files
        .slice(start, start + CONCURRENCY)
        .map((file) => compressOne(dir, file, previousDir, changing(file))),
    );
  }
  return files.length;
}
