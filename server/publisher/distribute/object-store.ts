import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { linkOrCopy } from '../export/atomic-file.ts';

/**
 * This instance's copies of stored objects, one file per content hash: versions are assembled from
 * them by hard links, so a file shared by ten versions is on disk once.
 */
export function createObjectStore(dir: string) {
  const fileOf = (hash: string) => path.join(dir, hash.slice(0, 2), hash);
  return {
    fileOf,
    async has(hash: string): Promise<boolean> {
      return stat(fileOf(hash)).then(
        () => true,
        () => false,
      );
    },
    /** Writes an object whole (temporary file, then rename): a reader never sees half of one. */
    async put(hash: string, body: Buffer): Promise<void> {
      const file = fileOf(hash);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, body);
      await rename(temporary, file);
    },
    /** Keeps a copy of a local file as the object `hash` (linked when the filesystem allows it). */
    async adopt(hash: string, source: string): Promise<void> {
      const file = fileOf(hash);
      if (await this.has(hash)) return;
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await linkOrCopy(source, temporary);
      await rename(temporary, file).catch(async (error: unknown) => {
        await rm(temporary, { force: true });
        throw error;
      });
    },
  };
}

export type ObjectStore = ReturnType<typeof createObjectStore>;

/**
 * Removes those of `hashes` no slot links to any more (a link count of one: only the store's own):
 * the objects a slot's changes replaced, so pruning costs the size of the change.
 */
export async function pruneNamedObjects(objects: ObjectStore, hashes: readonly string[]): Promise<number> {
  let removed = 0;
  for (const hash of hashes) {
    const info = await stat(objects.fileOf(hash)).catch(() => null);
    if (!info || info.nlink > 1) continue;
    await rm(objects.fileOf(hash), { force: true });
    removed += 1;
  }
  return removed;
}

/**
 * Removes objects no assembled version links to any more (a link count of one: only the store's own)
 * that are older than `graceMs`, so one downloaded for an assembly in progress stays. Where the
 * filesystem could not link, versions hold copies and the store is only a cache: removing is safe.
 */
export async function pruneObjects(dir: string, graceMs: number, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const shard of await readdir(dir).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(dir, shard)).catch(() => [] as string[])) {
      const file = path.join(dir, shard, name);
      const info = await stat(file).catch(() => null);
      if (!info || info.nlink > 1 || now - info.mtimeMs < graceMs) continue;
      await rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
