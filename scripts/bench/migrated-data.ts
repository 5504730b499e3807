/**
 * Fresh data folders for the bench's servers whose start-up is not a figure (the static and
 * Lighthouse sites' servers, the catalogue smoke's): each starts from a copy of one PGlite database migrated
 * once per run, instead of running PGlite's initdb and every migration again at its start.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { openPglite } from '../../server/db/client.ts';
import { tempDir } from './processes.ts';

let template: Promise<string> | null = null;

/** PGlite's folder of an empty database, migrated (made on first use). */
async function migratedTemplate(): Promise<string> {
  const dir = tempDir('migrated-template');
  const handle = await openPglite(dir);
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
  // openPglite keeps the database in DATA_DIR/pglite, where the server looks for it.
  return path.join(dir, 'pglite');
}

/** A fresh temp folder `name` (see tempDir) holding a migrated, empty database, as a server's DATA_DIR. */
export async function migratedDataDir(name: string): Promise<string> {
  const dir = tempDir(name);
  await copyMigratedInto(dir);
  return dir;
}

/** Starts making the migrated database now, so that its first user does not wait for all of it. */
export function prepareMigrated(): void {
  template ??= migratedTemplate();
  // A failure is the first user's to report.
  template.catch(() => undefined);
}

/** Copies the run's migrated, empty database into `dataDir` (a server's DATA_DIR, not yet started). */
export async function copyMigratedInto(dataDir: string): Promise<void> {
  template ??= migratedTemplate();
  // A failed template is made again by the next caller.
  const source = await template.catch((error: unknown) => {
    template = null;
    throw error;
  });
  await cp(source, path.join(dataDir, 'pglite'), { recursive: true });
}
