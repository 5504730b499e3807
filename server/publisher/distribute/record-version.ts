import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SiteVersionsRepository } from '../../repositories/site-versions.ts';
import { sha256Of } from '../export/atomic-file.ts';
import type { JournalEntries, WriteJournal } from '../export/write-journal.ts';
import type { ObjectStore } from './object-store.ts';
import { isVersionCatalogueFile, versionFiles, type VersionFile } from './version-files.ts';

/** Objects uploaded per statement: large enough to be quick, small enough for one round trip. */
const UPLOAD_BATCH_BYTES = 8 * 1024 * 1024;
const LOOKUP_BATCH = 1000;

export interface RecorderOptions {
  repository: SiteVersionsRepository;
  objects: ObjectStore;
  /** This instance, written into each version as its publisher. */
  instanceId: string;
  /** How far ahead instances switch to a version: long enough for every one to have fetched it. */
  leadMs: number;
  /**
   * What the export wrote into the catalogue folder: with it, a record after the first reads only
   * the files the export touched. Without it every record lists and reads the whole catalogue.
   */
  journal?: WriteJournal | undefined;
  /** Record only while holding the publisher lease (checked in the version's transaction). */
  requireLease?: boolean | undefined;
}

export interface RecordInput {
  siteDir: string;
  catalogueDir: string;
  /** The catalogue version the files carry (the manifest's), kept for logs and tests. */
  catalogueVersion: string | null;
}

/** Each path with the object it holds now (null: gone) and, when there, where the file lies. */
type Changes = Map<string, { hash: string | null; file?: string }>;

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

/** The files as they are now, hashed: path -> hash, and where each lies. */
async function hashed(files: readonly VersionFile[]): Promise<Map<string, { hash: string; file: string }>> {
  const now = new Map<string, { hash: string; file: string }>();
  for (const { key, file } of files) now.set(key, { hash: await sha256Of(file), file });
  return now;
}

/** Each path whose object differs between `before` and `now` (a missing path in `now`: gone). */
function compare(
  before: ReadonlyMap<string, string>,
  now: ReadonlyMap<string, { hash: string; file: string }>,
  into: Changes,
): void {
  for (const [key, entry] of now) if (before.get(key) !== entry.hash) into.set(key, entry);
  for (const key of before.keys()) if (!now.has(key)) into.set(key, { hash: null });
}

/**
 * The catalogue's changes from what the export noted: each noted public file as it is now against
 * the newest version's, and every path of the newest version under a folder removed whole.
 */
async function catalogueChanges(
  repository: SiteVersionsRepository,
  catalogueDir: string,
  noted: JournalEntries,
  into: Changes,
): Promise<void> {
  const root = `${path.resolve(catalogueDir)}${path.sep}`;
  const keyOf = (file: string) => `data/${file.slice(root.length).split(path.sep).join('/')}`;
  const keys = new Set<string>();
  for (const file of noted.files) if (isVersionCatalogueFile(file.slice(root.length))) keys.add(keyOf(file));
  for (const tree of noted.trees) {
    keys.add(keyOf(tree));
    for (const key of await repository.livePathsUnder(`${keyOf(tree)}/`)) keys.add(key);
  }
  const live = await repository.liveHashes([...keys]);
  for (const key of keys) {
    const file = path.join(catalogueDir, ...key.slice('data/'.length).split('/'));
    const there = await stat(file).then(
      (info) => info.isFile(),
      () => false,
    );
    const hash = there ? await sha256Of(file) : null;
    if (hash === (live.get(key) ?? null)) continue;
    into.set(key, hash === null ? { hash } : { hash, file });
  }
}

/** A stored object no version names is swept this long after its upload (a record that failed). */
const SWEEP_GRACE_MS = 60 * 60_000;

/**
 * The site's hashes, remembered by path, inode, size and modification time: a render or a build
 * replaces the files it writes, so an unchanged page is not read again. Bounded by the site's files:
 * entries of files no longer listed are dropped.
 */
function siteHashCache() {
  const known = new Map<string, { ino: number; size: number; mtimeMs: number; hash: string }>();
  return async (files: readonly VersionFile[]): Promise<Map<string, { hash: string; file: string }>> => {
    const now = new Map<string, { hash: string; file: string }>();
    for (const { key, file } of files) {
      const { ino, size, mtimeMs } = await stat(file);
      const seen = known.get(file);
      const hash =
        seen && seen.ino === ino && seen.size === size && seen.mtimeMs === mtimeMs
          ? seen.hash
          : await sha256Of(file);
      known.set(file, { ino, size, mtimeMs, hash });
      now.set(key, { hash, file });
    }
    const listed = new Set(files.map(({ file }) => file));
    for (const file of known.keys()) if (!listed.has(file)) known.delete(file);
    return now;
  };
}

/**
 * The publisher's side of the versions (decisions 036 and 044): `record` publishes what the site and
 * catalogue folders hold as a version every instance can fetch, written as the paths that changed
 * since the newest version. The site (small, rebuilt whole) is listed at every record and compared
 * with the last one, kept in memory; the catalogue is listed whole only at the first record, after a
 * failed one or when another publisher recorded since, and otherwise read from the export's journal.
 * A whole listing also stores every object the database lacks (one lost by a failed record heals)
 * and sweeps the objects no version names.
 */
export function createVersionRecorder(options: RecorderOptions) {
  const { repository, objects, instanceId, leadMs, journal } = options;
  const hashSite = siteHashCache();
  let last: { id: number; site: Map<string, string> } | null = null;
  return {
    /** Records a version and returns its id, or the newest one's when nothing changed. */
    async record(input: RecordInput): Promise<number> {
      // Taken first: whatever is written from now on belongs to the next record.
      const noted = journal?.take();
      const known = last;
      last = null; // a failure below makes the next record list everything
      const latest = await repository.latestId();
      const incremental = noted !== undefined && known !== null && known.id === latest;
      const [site, data] = await versionFiles(input.siteDir, input.catalogueDir, { catalogue: !incremental });
      const siteNow = await hashSite(site);
      const changes: Changes = new Map();
      let toStore: Iterable<{ hash: string | null; file?: string }> = changes.values();
      if (incremental) {
        compare(known.site, siteNow, changes);
        await catalogueChanges(repository, input.catalogueDir, noted, changes);
      } else {
        const before = latest === null ? new Map<string, string>() : await repository.filesAt(latest);
        const all = new Map([...siteNow, ...(await hashed(data))]);
        compare(before, all, changes);
        toStore = all.values();
        await repository.sweepObjects(SWEEP_GRACE_MS);
      }
      // Only the changed files become objects here (all of them at a whole listing); an unchanged
      // one is fetched from the database like any instance's, should this instance's store lack it.
      const stored = new Set<string>();
      for (const { hash, file } of toStore) {
        if (hash === null || file === undefined || stored.has(hash)) continue;
        stored.add(hash);
        await objects.adopt(hash, file);
      }
      // Objects first: a version row is only written once every file it names can be fetched.
      await upload(repository, objects, [...stored]);
      const siteHashes = new Map([...siteNow].map(([key, { hash }]) => [key, hash]));
      if (latest !== null && changes.size === 0) {
        last = { id: latest, site: siteHashes };
        return latest;
      }
      const id = await repository.insertVersion(
        {
          base: latest,
          changes: new Map([...changes].map(([key, { hash }]) => [key, hash])),
          catalogueVersion: input.catalogueVersion,
          publisher: instanceId,
          leaseHolder: options.requireLease ? instanceId : undefined,
        },
        leadMs,
      );
      last = { id, site: siteHashes };
      return id;
    },
  };
}
