import { readFile } from 'node:fs/promises';
import type { SiteVersionsRepository } from '../../repositories/site-versions.ts';
import type { ObjectStore } from './object-store.ts';
import { versionFiles } from './version-files.ts';

/** Objects uploaded per statement: large enough to be quick, small enough for one round trip. */
const UPLOAD_BATCH_BYTES = 8 * 1024 * 1024;
const LOOKUP_BATCH = 1000;

export interface RecordVersionOptions {
  repository: SiteVersionsRepository;
  objects: ObjectStore;
  hashOf: (file: string) => Promise<string>;
  siteDir: string;
  catalogueDir: string;
  /** This instance, written into the version as its publisher. */
  instanceId: string;
  /** The catalogue version the files carry (the manifest's), kept for logs and tests. */
  catalogueVersion: string | null;
  /** How far ahead instances switch to it: long enough for every one to have fetched it. */
  leadMs: number;
}

async function upload(repository: SiteVersionsRepository, objects: ObjectStore, hashes: string[]) {
  let batch: { hash: string; body: Buffer }[] = [];
  let bytes = 0;
  for (let start = 0; start < hashes.length; start += LOOKUP_BATCH) {
    for (const hash of await repository.missingObjects(hashes.slice(start, start + LOOKUP_BATCH))) {
      const body = await readFile(objects.fileOf(hash));
      batch.push({ hash, body });
      bytes += body.length;
      if (bytes >= UPLOAD_BATCH_BYTES) {
        await repository.storeObjects(batch);
        [batch, bytes] = [[], 0];
      }
    }
  }
  await repository.storeObjects(batch);
}

function sameFiles(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * Publishes what the site and catalogue folders hold now as a version every instance can fetch: each
 * file is kept in this instance's object store and uploaded unless the database has it already, then
 * one row names them all. Returns the new version's id, or the newest one's when nothing changed.
 */
export async function recordVersion(options: RecordVersionOptions): Promise<number> {
  const { repository, objects, hashOf } = options;
  const files: Record<string, string> = {};
  for (const { key, file } of await versionFiles(options.siteDir, options.catalogueDir)) {
    const hash = await hashOf(file);
    await objects.adopt(hash, file);
    files[key] = hash;
  }
  const latest = await repository.latestId();
  const previous = latest === null ? null : await repository.find(latest);
  if (previous && latest !== null && sameFiles(previous.files, files)) return latest;
  // Objects first: a version row is only written once every file it names can be fetched.
  await upload(repository, objects, [...new Set(Object.values(files))]);
  return repository.insertVersion(
    { files, catalogueVersion: options.catalogueVersion, publisher: options.instanceId },
    options.leadMs,
  );
}
