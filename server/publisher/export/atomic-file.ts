import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { compressBoth, QUICK } from '../../http/compression.ts';
import { noteWritten } from './write-journal.ts';

/** Bodies up to this size get no compressed siblings: the headers would outweigh the saving. */
export const SIBLING_MIN_BYTES = 256;

/** The precompressed siblings of a file, as the server looks for them: `<file>.br` and `<file>.gz`. */
export function siblingsOf(file: string): { br: string; gz: string } {
  return { br: `${file}.br`, gz: `${file}.gz` };
}

/** Whether a name is a precompressed sibling rather than a file of its own (a stale-file pass skips it). */
export function isPrecompressedSibling(name: string): boolean {
  return name.endsWith('.br') || name.endsWith('.gz');
}

function temporaryFor(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/** Writes one file whole and renames it into place, so a reader never sees half a file. */
export async function writeAtomically(file: string, body: string): Promise<void> {
  const temporary = temporaryFor(file);
  await writeFile(temporary, body);
  await rename(temporary, file);
  noteWritten(file);
}

/** Brotli (quick level: thousands of catalogue files) and gzip copies of `body`, each only when smaller. */
export async function compressedCopies(body: Buffer): Promise<{ br?: Buffer; gz?: Buffer }> {
  if (body.length <= SIBLING_MIN_BYTES) return {};
  const { br, gz } = await compressBoth(body, QUICK);
  return { ...(br.length < body.length && { br }), ...(gz.length < body.length && { gz }) };
}

/**
 * The modification time a new version of `file` is stamped with: now, but always after the version
 * it replaces, so two versions written within one clock tick still carry different stamps.
 */
async function nextStamp(file: string): Promise<Date> {
  const previous = await stat(file).catch(() => null);
  return new Date(Math.max(Date.now(), previous ? Math.floor(previous.mtimeMs) + 1 : 0));
}

/** Temporary files holding a new version of a file and its siblings, ready to be renamed into place. */
export interface PreparedVersion {
  /** The new body (a temporary file in the same folder). */
  main: string;
  /** Its brotli copy, when it saves bytes; absent: a stale `.br` is removed. */
  br?: string | undefined;
  /** Its gzip copy, when it saves bytes; absent: a stale `.gz` is removed. */
  gz?: string | undefined;
}

/**
 * Renames a prepared version and its siblings into place. For writers that stream large files into
 * temporary files themselves; `writeIfChanged` uses it too.
 *
 * The server takes a sibling only when its mtime is not older than the file's (serve/catalogue-entry.ts):
 * an older one was made from an earlier version. All three files get one modification time, new for
 * this version (after the one it replaces), so the siblings of this version always qualify. The
 * siblings are renamed BEFORE the main file: a reader that sees the new main file finds its siblings
 * already there. Trap: a reader between the renames may pair the new siblings with the old file;
 * the server derives each encoding's ETag and length from that encoding's own bytes, so every answer
 * is still whole and true to itself, and the next request sees the new version. Stale siblings
 * (a body that no longer compresses) are removed before the main file moves too.
 */
export async function commitWithSiblings(file: string, prepared: PreparedVersion): Promise<void> {
  const stamp = await nextStamp(file);
  const { br, gz } = siblingsOf(file);
  const moves: [string | undefined, string][] = [
    [prepared.br, br],
    [prepared.gz, gz],
  ];
  await Promise.all(
    [prepared.main, prepared.br, prepared.gz].flatMap((temporary) =>
      temporary ? [utimes(temporary, stamp, stamp)] : [],
    ),
  );
  await Promise.all(
    moves.map(([temporary, target]) => (temporary ? rename(temporary, target) : rm(target, { force: true }))),
  );
  await rename(prepared.main, file);
  noteWritten(file, br, gz);
}

/** Writes `file` and, for a body worth compressing, its `.br`/`.gz` siblings (see commitWithSiblings). */
export async function writeWithSiblings(file: string, body: string | Buffer): Promise<void> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const copies = await compressedCopies(bytes);
  const prepared: PreparedVersion = { main: temporaryFor(file) };
  if (copies.br) prepared.br = temporaryFor(siblingsOf(file).br);
  if (copies.gz) prepared.gz = temporaryFor(siblingsOf(file).gz);
  try {
    await Promise.all([
      writeFile(prepared.main, bytes),
      prepared.br && copies.br ? writeFile(prepared.br, copies.br) : undefined,
      prepared.gz && copies.gz ? writeFile(prepared.gz, copies.gz) : undefined,
    ]);
    await commitWithSiblings(file, prepared);
  } catch (error) {
    // A failed write (disk full) leaves no temporary files behind.
    await Promise.all(
      [prepared.main, prepared.br, prepared.gz].flatMap((f) => (f ? [rm(f, { force: true })] : [])),
    );
    throw error;
  }
}

/** Removes a file and its precompressed siblings (a stale catalogue file). */
export async function removeWithSiblings(file: string): Promise<void> {
  const { br, gz } = siblingsOf(file);
  // The main file first: a reader that still finds it finds its siblings too (a reader that found
  // no siblings would answer with the file itself, which is correct as well).
  await rm(file, { force: true });
  await Promise.all([rm(br, { force: true }), rm(gz, { force: true })]);
  noteWritten(file, br, gz);
}

/** Whether the siblings a body of `length` bytes should have are there, none older than the file. */
async function siblingsInPlace(file: string, length: number): Promise<boolean> {
  if (length <= SIBLING_MIN_BYTES) return true;
  const { br, gz } = siblingsOf(file);
  const [main, brStats, gzStats] = await Promise.all([file, br, gz].map((f) => stat(f).catch(() => null)));
  if (!main) return false;
  // A copy that did not save bytes is legitimately absent; one that is there must not be older.
  const copies = [brStats, gzStats];
  return copies.some(Boolean) && copies.every((copy) => !copy || copy.mtimeMs >= main.mtimeMs);
}

export interface WriteOptions {
  /** Write `.br`/`.gz` siblings for the server and static hosts (default true). */
  precompress?: boolean;
}

/**
 * Writes the file atomically, with its precompressed siblings, unless it already holds exactly
 * `body` (and its siblings); returns whether the file's content changed. Skipping identical content
 * keeps the site build's fingerprint, so nothing is rebuilt for it.
 */
export async function writeIfChanged(
  file: string,
  body: string,
  { precompress = true }: WriteOptions = {},
): Promise<boolean> {
  const current = await readFile(file, 'utf8').catch(() => null);
  const same = current === body;
  // A folder exported before the siblings existed gets them on the next export, content unchanged.
  if (same && (!precompress || (await siblingsInPlace(file, Buffer.byteLength(body))))) return false;
  if (precompress) await writeWithSiblings(file, body);
  else await writeAtomically(file, body);
  return !same;
}

/**
 * A hard link (the export and the build replace files rather than rewrite them, so a linked copy
 * never changes under us), or a copy across filesystems.
 */
export async function linkOrCopy(source: string, target: string): Promise<void> {
  await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EXDEV' && error.code !== 'EPERM' && error.code !== 'EMLINK') throw error;
    await copyFile(source, target);
  });
}

/** A file's SHA-256, streamed (a catalogue's whole files run to hundreds of megabytes). */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
