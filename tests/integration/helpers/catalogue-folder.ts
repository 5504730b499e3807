import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_STATE_FILE } from '../../../server/publisher/export/export-state.ts';

/**
 * Every data file in an exported catalogue folder (not the export's own state), as `/` paths; the
 * precompressed copies (`.br`, `.gz`) only with `copies`.
 */
export async function catalogueFileNames(catalogueDir: string, { copies = false } = {}): Promise<string[]> {
  const entries = await readdir(catalogueDir, { recursive: true, withFileTypes: true });
  return entries
    .filter(
      (entry) =>
        entry.isFile() && entry.name !== EXPORT_STATE_FILE && (copies || !/\.(br|gz)$/.test(entry.name)),
    )
    .map((entry) =>
      path.relative(catalogueDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
}

/** Page numbers per list (`all`, `topics/grids`, ...), from the files' names, in order. */
export function pagesByList(names: string[]): Map<string, number[]> {
  const lists = new Map<string, number[]>();
  for (const name of names) {
    const match = /^pages\/(.+)\/(\d+)\.json$/.exec(name);
    if (!match?.[1] || !match[2]) continue;
    lists.set(match[1], [...(lists.get(match[1]) ?? []), Number(match[2])]);
  }
  for (const numbers of lists.values()) numbers.sort((a, b) => a - b);
  return lists;
}
