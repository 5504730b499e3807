import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { noteRemovedTree, noteWritten } from './write-journal.ts';

/** A page file's name (or its precompressed copy's): `7.json`, `7.json.br`, `7.json.gz`. */
const PAGE_FILE = /^([1-9]\d*)\.json(?:\.br|\.gz)?$/;
const COPY_SUFFIX = /\.(?:br|gz)$/;

/** What the new catalogue has: pages per list (`all`, `topics/{slug}`, ...) and the search files. */
export interface WantedFiles {
  pages: ReadonlyMap<string, number>;
  /** Paths relative to the catalogue folder: `search/index.json`, `search/{shard}.json`. */
  search: ReadonlySet<string>;
}

async function entries(dir: string) {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

/**
 * Removes from `dir`'s derived folders (pages/, search/) everything the new catalogue does not have,
 * with the precompressed copies: pages past a list's end, lists and topics that are gone, old search
 * shards, strays. Reads one folder at a time (a list of a million threads has 42,000 pages) and
 * decides by name, holding no list of every file. Returns whether it removed anything.
 */
export async function removeStaleFiles(dir: string, wanted: WantedFiles): Promise<boolean> {
  let removed = false;
  const remove = async (target: string, folder: boolean) => {
    await rm(target, { recursive: true, force: true });
    if (folder) noteRemovedTree(target);
    else noteWritten(target);
    removed = true;
  };
  /** Keeps a list's page files 1..pages (and their copies); removes everything else in its folder. */
  const prune = async (folder: string, pages: number) => {
    for (const entry of await entries(folder)) {
      const match = PAGE_FILE.exec(entry.name);
      if (!entry.isFile() || !match || Number(match[1]) > pages)
        await remove(path.join(folder, entry.name), entry.isDirectory());
    }
  };

  const pagesDir = path.join(dir, 'pages');
  for (const entry of await entries(pagesDir)) {
    const target = path.join(pagesDir, entry.name);
    if (entry.name === 'topics' && entry.isDirectory()) {
      // A topic that is gone goes with its folder, so /data lists only live topics.
      for (const topic of await entries(target)) {
        const pages = wanted.pages.get(`topics/${topic.name}`);
        if (pages && topic.isDirectory()) await prune(path.join(target, topic.name), pages);
        else await remove(path.join(target, topic.name), topic.isDirectory());
      }
      continue;
    }
    const pages = wanted.pages.get(entry.name);
    if (pages && entry.isDirectory()) await prune(target, pages);
    else await remove(target, entry.isDirectory());
  }

  const searchDir = path.join(dir, 'search');
  for (const entry of await entries(searchDir)) {
    const name = `search/${entry.name.replace(COPY_SUFFIX, '')}`;
    if (!entry.isFile() || !wanted.search.has(name))
      await remove(path.join(searchDir, entry.name), entry.isDirectory());
  }
  return removed;
}
