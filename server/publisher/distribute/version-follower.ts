import path from 'node:path';
import type { SiteVersion, SiteVersionsRepository } from '../../repositories/site-versions.ts';
import { assembleInSlot, chooseSlot, removeLegacyVersions, type VersionFolders } from './local-versions.ts';
import { pruneNamedObjects, pruneObjects, type ObjectStore } from './object-store.ts';

/** An object downloaded this recently may belong to an assembly in progress: never pruned. */
const OBJECT_GRACE_MS = 10 * 60_000;

export interface FollowerOptions {
  repository: SiteVersionsRepository;
  objects: ObjectStore;
  /** Where versions are assembled (DATA_DIR/published): this instance's own disk. */
  publishedDir: string;
  /** Swaps what is served to an assembled version once `dueInMs` has passed (see ServedSite.prepare). */
  apply(folders: VersionFolders, version: SiteVersion, dueInMs: number): Promise<void>;
  onError(error: unknown): void;
  /** How often the newest version is looked up. */
  intervalMs: number;
}

export interface VersionFollower {
  /** The version served now; null before the first. */
  current(): number | null;
  /** Switches to the newest published version now, if it is newer (serialised with the polling). */
  syncNow(): Promise<number | null>;
  close(): void;
}

/**
 * Follows the published versions: every `intervalMs` the newest id is read (one indexed query), and a
 * newer version's changes are downloaded and laid into a version folder not served (decision 044),
 * which is then served as a whole: this instance switches from one complete version to the next,
 * never serves half of one, and each switch costs what the version changed.
 */
export function createVersionFollower(options: FollowerOptions): VersionFollower {
  const { repository, objects, publishedDir } = options;
  let current: number | null = null;
  // The slots of the version served and the one before it, newest last: never written into.
  const inUse: number[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  const sync = async (): Promise<number | null> => {
    const asked = performance.now();
    const newest = await repository.latest();
    if (newest === null || newest.id === current) return current;
    const latest = newest.id;
    const version = await repository.find(latest);
    if (!version) return current;
    const slot = await chooseSlot(publishedDir, new Set(inUse));
    const assembled = await assembleInSlot(slot, latest, { repository, objects, publishedDir });
    await options.apply(assembled.folders, version, Math.max(0, newest.waitMs - (performance.now() - asked)));
    current = latest;
    inUse.push(slot);
    inUse.splice(0, Math.max(0, inUse.length - 2));
    await pruneNamedObjects(objects, assembled.replaced);
    // Laid out whole, the slot's old objects are unknown: look at every object (a first start).
    if (assembled.whole) {
      await removeLegacyVersions(publishedDir);
      await pruneObjects(path.join(publishedDir, 'objects'), OBJECT_GRACE_MS);
    }
    return current;
  };
  const syncNow = () => {
    const next = queue.then(sync);
    queue = next.catch(() => {});
    return next;
  };
  const timer = setInterval(() => {
    syncNow().catch((error: unknown) => options.onError(error));
  }, options.intervalMs);
  timer.unref();
  return { current: () => current, syncNow, close: () => clearInterval(timer) };
}
