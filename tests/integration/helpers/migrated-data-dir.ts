import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite } from '../../../server/db/client.ts';

let template: Promise<string> | undefined;

/** This worker's template: a data folder whose embedded database is created and migrated, then closed. */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ct-template-'));
    const database = await openPglite(dir);
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    return dir;
  })();
  return template;
}

/**
 * A fresh data folder (named from `prefix`) whose embedded database already exists, migrated: a copy
 * of one made once per worker. Creating a PGlite database in an empty folder runs initdb, seconds
 * of work and a gigabyte of memory in every test and every process that opens it; opening a copy
 * does neither. Tests of what a first start does in an empty folder use mkdtemp instead.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const source = await migratedTemplate();
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  await cp(path.join(source, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}
