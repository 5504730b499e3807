import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { SiteVersionsRepository, VersionChanges } from '../../repositories/site-versions.ts';
import { linkOrCopy, writeAtomically } from '../export/atomic-file.ts';
import type { ObjectStore } from './object-store.ts';

const DOWNLOAD_BATCH = 200;
/**
 * Folders an instance assembles versions in, reused in turn: the one served, the one before (its
 * hashed files are still asked for) and the one being brought to the next version.
 */
export const SLOTS = 3;

/** Where a version is assembled: its site and its catalogue, as the served site reads them. */
export interface VersionFolders {
  siteDir: string;
  catalogueDir: string;
}

export interface AssembleContext {
  repository: SiteVersionsRepository;
  objects: ObjectStore;
  /** DATA_DIR/published: this instance's own disk. */
  publishedDir: string;
}

/** A slot brought to a version, and the objects its previous files held (candidates for pruning). */
export interface AssembledSlot {
  folders: VersionFolders;
  replaced: string[];
  /** Whether the slot was laid out whole (a first start, or a version too old to catch up from). */
  whole: boolean;
}

const rootOf = (publishedDir: string, slot: number) => path.join(publishedDir, 'slots', String(slot));
// The marker lies beside the slot, so laying the slot out whole never removes it by accident.
const markerOf = (root: string) => `${root}.version`;

function foldersOf(root: string): VersionFolders {
  return { siteDir: path.join(root, 'site'), catalogueDir: path.join(root, 'data') };
}

/** The version slot `slot` holds whole, or null (none yet, or an assembly was cut short). */
export async function slotVersion(publishedDir: string, slot: number): Promise<number | null> {
  const text = await readFile(markerOf(rootOf(publishedDir, slot)), 'utf8').catch(() => null);
  const id = text === null ? NaN : Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** Among the slots not in `busy`, the one holding the newest version: the fewest changes to apply. */
export async function chooseSlot(publishedDir: string, busy: ReadonlySet<number>): Promise<number> {
  let best: { slot: number; version: number } | null = null;
  for (let slot = 0; slot < SLOTS; slot += 1) {
    if (busy.has(slot)) continue;
    const version = (await slotVersion(publishedDir, slot)) ?? -1;
    if (!best || version > best.version) best = { slot, version };
  }
  if (!best) throw new Error('every version folder is in use');
  return best.slot;
}

/** Fetches the objects of `hashes` this instance does not hold yet. */
async function download(repository: SiteVersionsRepository, objects: ObjectStore, hashes: string[]) {
  const missing: string[] = [];
  for (const hash of hashes) if (!(await objects.has(hash))) missing.push(hash);
  for (let start = 0; start < missing.length; start += DOWNLOAD_BATCH) {
    const wanted = missing.slice(start, start + DOWNLOAD_BATCH);
    const found = await repository.readObjects(wanted);
    if (found.length !== wanted.length)
      throw new Error(
        'A file of the published version is missing from the database; waiting for a newer one.',
      );
    for (const { hash, body } of found) await objects.put(hash, body);
  }
}

/** Lays `changes` into the slot at `root`: each file linked aside and renamed over, never written in place. */
async function applyChanges(root: string, changes: VersionChanges, objects: ObjectStore): Promise<void> {
  const made = new Set<string>();
  for (const [key, hash] of changes.changed) {
    const target = path.join(root, ...key.split('/'));
    const folder = path.dirname(target);
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    const temporary = `${target}.${randomBytes(4).toString('hex')}.linking`;
    await linkOrCopy(objects.fileOf(hash), temporary);
    await rename(temporary, target);
  }
  for (const key of changes.removed) await rm(path.join(root, ...key.split('/')), { force: true });
  // An empty catalogue still has its folders: the served site reads both.
  await mkdir(path.join(root, 'site'), { recursive: true });
  await mkdir(path.join(root, 'data'), { recursive: true });
}

/**
 * Brings slot `slot` under `publishedDir` to version `id` (decision 044): by the changes since the
 * version it holds when that one is still kept, else laid out whole. The slot's marker is removed
 * first and written last, so a slot cut short is laid out whole next time, never trusted.
 */
export async function assembleInSlot(
  slot: number,
  id: number,
  { repository, objects, publishedDir }: AssembleContext,
): Promise<AssembledSlot> {
  const root = rootOf(publishedDir, slot);
  const held = await slotVersion(publishedDir, slot);
  if (held === id) return { folders: foldersOf(root), replaced: [], whole: false };
  let changes: VersionChanges | null = null;
  if (held !== null && held < id) {
    changes = await repository.changesBetween(held, id);
    // Read after the changes: a prune that removed `held`'s rows has removed `held` too.
    const oldest = await repository.oldestId();
    if (oldest === null || held < oldest) changes = null;
  }
  const whole = changes === null;
  changes ??= { changed: await repository.filesAt(id), removed: [], replaced: [] };
  await download(repository, objects, [...new Set(changes.changed.values())]);
  await rm(markerOf(root), { force: true });
  if (whole) await rm(root, { recursive: true, force: true });
  await applyChanges(root, changes, objects);
  await writeAtomically(markerOf(root), String(id));
  return { folders: foldersOf(root), replaced: changes.replaced, whole };
}

/**
 * Removes what earlier releases assembled (one `v<id>` folder per version, decision 036): slots
 * replaced them. Objects stay: the slots mostly share them.
 */
export async function removeLegacyVersions(publishedDir: string): Promise<void> {
  for (const name of await readdir(publishedDir).catch(() => [] as string[])) {
    if (!/^v\d+(\.assembling-[0-9a-f]+)?$/.test(name)) continue;
    await rm(path.join(publishedDir, name), { recursive: true, force: true });
  }
}
