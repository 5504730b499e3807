import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { compressedCopies, siblingsOf } from '../export/atomic-file.ts';
import { contentTypeFor } from './content-types.ts';
import { answerHeaders, type FileResponse, type HeaderParts } from './file-responses.ts';

/**
 * Files up to this size are read once and answered from memory (their bodies count against the
 * cache's byte budget); larger ones (the whole-catalogue files) are streamed from disk every time.
 */
export const MEMORY_MAX_BYTES = 1024 * 1024;

/** A file version: the same inode with the same size and modification time. Writers rename, never edit in place. */
export function versionOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
}

/** One encoding of a catalogue file: its precomputed headers, and its body or where to stream it from. */
export interface Variant extends Omit<FileResponse, 'body'> {
  /** The body, for a small file; undefined: stream `file`, which must still be at `version`. */
  body: Buffer | undefined;
  file: string;
  version: string;
  length: number;
}

/** What is known about one version of a catalogue file, computed once and kept in the cache. */
export interface CatalogueEntry {
  /** The version of the main file it was made from. */
  version: string;
  identity: Variant;
  br: Variant | undefined;
  gzip: Variant | undefined;
  /** Bytes of bodies held in memory. */
  bytes: number;
}

export interface EntryOptions {
  cacheControl: string;
  secure: boolean;
}

interface Opened {
  file: string;
  handle: FileHandle;
  stats: BigIntStats;
}

/**
 * Opens `file` when it is a regular file whose real path (symlinks resolved) lies inside `root`;
 * null otherwise (missing, a folder, or a link out of the catalogue folder).
 */
async function openInside(root: string, file: string): Promise<Opened | null> {
  const real = await realpath(file).catch(() => null);
  if (real === null || !real.startsWith(root + path.sep)) return null;
  const handle = await open(real, 'r').catch(() => null);
  if (!handle) return null;
  const stats = await handle.stat({ bigint: true });
  if (stats.isFile()) return { file: real, handle, stats };
  await handle.close();
  return null;
}

/**
 * A sibling compressed from this version of the file or a later one: its mtime is not older than
 * the file's (export/atomic-file.ts stamps a version and its siblings alike; a streaming writer
 * compresses after it wrote). An older one is stale and is not used. Only kept when smaller.
 *
 * Trap: a writer renames the siblings before the main file, so a reader between the two renames
 * takes the new sibling beside the old file. Every variant's ETag and length come from its own
 * bytes, so each answer is whole and true to itself; the next request after the rename sees the
 * file's new version and reads it all again.
 */
async function openSibling(root: string, file: string, main: Opened): Promise<Opened | null> {
  const sibling = await openInside(root, file);
  if (!sibling) return null;
  if (sibling.stats.mtimeNs >= main.stats.mtimeNs && sibling.stats.size < main.stats.size) return sibling;
  await sibling.handle.close();
  return null;
}

/** A strong ETag of bytes in memory: the same bytes on another instance or after a restart keep it. */
function hashTag(body: Buffer, suffix = ''): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${suffix}"`;
}

/**
 * The ETag of a file streamed from disk: from its inode, size and modification time, since hashing
 * hundreds of megabytes per version would cost more than revalidation saves.
 */
function statTag({ stats }: Opened, suffix = ''): string {
  return `"${[stats.ino, stats.size, stats.mtimeNs].map((n) => n.toString(36)).join('-')}${suffix}"`;
}

/**
 * Reads one version of a catalogue file under `root` (a real path): its headers per encoding,
 * computed once, with the bodies of a small file. Null when the file is not there to serve.
 */
export async function readEntry(
  root: string,
  file: string,
  options: EntryOptions,
): Promise<CatalogueEntry | null> {
  const main = await openInside(root, file);
  if (!main) return null;
  const names = siblingsOf(file);
  const [brFile, gzFile] = await Promise.all([
    openSibling(root, names.br, main),
    openSibling(root, names.gz, main),
  ]);
  try {
    const size = Number(main.stats.size);
    const small = size <= MEMORY_MAX_BYTES;
    let body: Buffer | undefined;
    let br: Buffer | undefined;
    let gz: Buffer | undefined;
    if (small) {
      [body, br, gz] = await Promise.all([
        main.handle.readFile(),
        brFile?.handle.readFile(),
        gzFile?.handle.readFile(),
      ]);
      // A folder exported before the siblings existed: compressed here once per version instead.
      if (!brFile && !gzFile) ({ br, gz } = await compressedCopies(body));
    }
    const parts: HeaderParts = {
      contentType: contentTypeFor(file),
      cacheControl: options.cacheControl,
      csp: undefined,
      varies: Boolean(br ?? gz ?? brFile ?? gzFile),
    };
    const variant = (opened: Opened, inMemory: Buffer | undefined, coding: 'br' | 'gz' | null): Variant => {
      const length = inMemory ? inMemory.length : Number(opened.stats.size);
      const suffix = coding ? `-${coding}` : '';
      const etag = inMemory ? hashTag(inMemory, suffix) : statTag(opened, suffix);
      const encoding = coding === 'gz' ? 'gzip' : (coding ?? undefined);
      return {
        etag,
        body: inMemory,
        file: opened.file,
        version: versionOf(opened.stats),
        length,
        ...answerHeaders(parts, { length, etag, encoding }, options.secure),
      };
    };
    // A copy made in memory has no file of its own (`file` is the main one, never opened for it).
    const brVariant = br || brFile ? variant(brFile ?? main, br, 'br') : undefined;
    const gzVariant = gz || gzFile ? variant(gzFile ?? main, gz, 'gz') : undefined;
    return {
      version: versionOf(main.stats),
      identity: variant(main, body, null),
      br: brVariant,
      gzip: gzVariant,
      bytes: (body?.length ?? 0) + (br?.length ?? 0) + (gz?.length ?? 0),
    };
  } finally {
    await Promise.all([main, brFile, gzFile].flatMap((opened) => (opened ? [opened.handle.close()] : [])));
  }
}

/**
 * Opens a streamed variant's file, or null when it is no longer the version the headers were
 * computed for (the export replaced it since): headers and body always come from one version.
 */
export async function openVariant(variant: Variant): Promise<Readable | null> {
  const handle = await open(variant.file, 'r').catch(() => null);
  if (!handle) return null;
  const stats = await handle.stat({ bigint: true }).catch(() => null);
  if (!stats || versionOf(stats) !== variant.version) {
    await handle.close();
    return null;
  }
  // The handle pins this version: a rename over the path does not change what is read. It closes
  // itself at the end of the stream or when the stream is destroyed (a client went away).
  return handle.createReadStream({ start: 0, end: variant.length - 1 });
}
