import { readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Every file under `dir/folder` (none when that folder is missing), by path relative to `dir` with `/`
 * separators. `skip` names folders (relative to `dir`, e.g. `data`) not to descend into: a built
 * site's copy of the catalogue holds hundreds of thousands of files at 1M threads.
 */
export async function filesUnder(
  dir: string,
  folder: string,
  skip: (relativeFolder: string) => boolean = () => false,
): Promise<string[]> {
  const files: string[] = [];
  const root = folder.split(path.sep).join('/').replace(/\/$/, '');
  const walk = async (relative: string): Promise<void> => {
    // Only a missing starting folder lists as empty: any other failure (a folder that vanished
    // mid-walk, one that cannot be read) is an error, never a partial list.
    const entries = await readdir(path.join(dir, relative), { withFileTypes: true }).catch(
      (error: unknown) => {
        if (relative === root && (error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      },
    );
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isFile()) files.push(child);
      else if (entry.isDirectory() && !skip(child)) await walk(child);
    }
  };
  await walk(root);
  return files;
}

const hidden = (relative: string) => relative.split('/').some((part) => part.startsWith('.'));

/**
 * The files of `dir` that can be served: dot-files and dot-folders (a build stamp, a write in
 * progress) left out, and folders `skipFolder` names never entered.
 */
export async function visibleFilesUnder(
  dir: string,
  skipFolder: (relativeFolder: string) => boolean = () => false,
): Promise<string[]> {
  const files = await filesUnder(dir, '', (folder) => hidden(folder) || skipFolder(folder));
  return files.filter((file) => !hidden(file));
}
