import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';

/** Writes one file whole and renames it into place, so a reader never sees half a file. */
export async function writeAtomically(file: string, body: string): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, body);
  await rename(temporary, file);
}

/**
 * Writes the file atomically unless it already holds exactly `body`; returns whether it wrote.
 * Skipping identical content keeps the site build's fingerprint, so nothing is rebuilt for it.
 */
export async function writeIfChanged(file: string, body: string): Promise<boolean> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current === body) return false;
  await writeAtomically(file, body);
  return true;
}
