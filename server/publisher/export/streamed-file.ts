import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { quickStreams } from '../../http/compression.ts';
import { sha256Of } from './atomic-file.ts';
import { noteWritten } from './write-journal.ts';

/** Text gathered before it goes to disk. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The precompressed copies written beside a streamed file, at the quick levels the site build uses
 * for large files (precompress.ts): brotli 11 would take minutes on a catalogue of a million threads.
 */
const SIBLINGS = [
  { suffix: '.br', compressor: quickStreams.brotli },
  { suffix: '.gz', compressor: quickStreams.gzip },
] as const;

/**
 * A data file written as a stream (threads-all.json at a million threads is hundreds of megabytes):
 * the text goes to a temporary file while it is hashed; `finish` keeps the file on disk when it holds
 * the same bytes, or else renames the new one into place, its `.br` and `.gz` copies first (each
 * only when smaller than the file; a copy that is not is removed, so none is ever stale).
 */
export class StreamedFile {
  private readonly hash: Hash = createHash('sha256');
  private pending: string[] = [];
  private pendingBytes = 0;
  readonly file: string;
  private readonly handle: FileHandle;
  private readonly temporary: string;

  private constructor(file: string, handle: FileHandle, temporary: string) {
    this.file = file;
    this.handle = handle;
    this.temporary = temporary;
  }

  static async create(file: string): Promise<StreamedFile> {
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    return new StreamedFile(file, await open(temporary, 'w'), temporary);
  }

  /** Appends text; resolves once the text is buffered or written, so memory stays bounded. */
  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes >= CHUNK_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    this.hash.update(text);
    await this.handle.write(text);
  }

  /** Puts the file in place unless the one there is the same; returns whether it changed. */
  async finish(): Promise<boolean> {
    await this.flush();
    await this.handle.close();
    const digest = this.hash.digest('hex');
    const [size, current] = await Promise.all([
      stat(this.temporary).then((info) => info.size),
      stat(this.file).then(
        (info) => info.size,
        () => -1,
      ),
    ]);
    if (size === current && (await sha256Of(this.file).catch(() => null)) === digest) {
      await rm(this.temporary, { force: true });
      return false;
    }
    // Both copies at once: each stream compresses on a thread of its own, so two cores share them.
    // Settled, not raced: a failure is thrown once neither is still writing (discard then removes both).
    await settleAll(
      SIBLINGS.map(async ({ suffix, compressor }) => {
        const sibling = `${this.temporary}${suffix}`;
        await pipeline(createReadStream(this.temporary), compressor(size), createWriteStream(sibling));
        if ((await stat(sibling)).size < size) await rename(sibling, `${this.file}${suffix}`);
        else await Promise.all([rm(sibling, { force: true }), rm(`${this.file}${suffix}`, { force: true })]);
      }),
    );
    await rename(this.temporary, this.file);
    noteWritten(this.file, ...SIBLINGS.map(({ suffix }) => `${this.file}${suffix}`));
    return true;
  }

  /** Drops the temporary file (the export gave up). */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await Promise.all(
      ['', ...SIBLINGS.map(({ suffix }) => suffix)].map((suffix) =>
        rm(`${this.temporary}${suffix}`, { force: true }),
      ),
    );
  }
}

/** Waits for every promise; then throws the first failure, if any. */
export async function settleAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}
