/**
 * `node tests/e2e-data-dir.ts DIR`: empties DIR and puts in it an embedded database already created
 * and migrated, copied from a template made once per set of migrations (test-output/pglite-templates/).
 * The browser tests start eight servers at once; each creating its database in an empty folder would
 * run initdb and every migration eight times over (seconds of CPU and about a gigabyte each). Tests of
 * what a first start does in an empty folder are integration tests and do not come through here.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '..');
const MIGRATIONS = path.join(ROOT, 'server/db/migrations');
const TEMPLATES = path.join(ROOT, 'test-output/pglite-templates');
/** A lock older than this was left by a run that died while making the template. */
const STALE_LOCK_MS = 120_000;
const WAIT_MS = 240_000;

/** A digest of every migration file: another migration makes another template. */
async function migrationsKey(): Promise<string> {
  const entries = await readdir(MIGRATIONS, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(path.relative(MIGRATIONS, file)).update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

async function ageMs(file: string): Promise<number | null> {
  return stat(file).then(
    (info) => Date.now() - info.mtimeMs,
    () => null,
  );
}

/** The template folder: made by the first process that asks (under a lock), waited for by the others. */
async function template(): Promise<string> {
  const dir = path.join(TEMPLATES, await migrationsKey());
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT_MS;
  await mkdir(TEMPLATES, { recursive: true });
  while ((await ageMs(dir)) === null) {
    const lockAge = await ageMs(lock);
    if (lockAge !== null && lockAge > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
    const locked = await mkdir(lock).then(
      () => true,
      () => false,
    );
    if (!locked) {
      if (Date.now() > deadline) throw new Error(`Waited too long for the database template ${dir}.`);
      await sleep(200);
      continue;
    }
    try {
      const making = `${dir}.making`;
      await rm(making, { recursive: true, force: true });
      // Loaded only here: PGlite is heavy, and the copies need none of it.
      const { openPglite } = await import('../server/db/client.ts');
      const database = await openPglite(making);
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await rename(making, dir);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

const target = process.argv[2];
if (!target) {
  console.error('usage: node tests/e2e-data-dir.ts DATA_DIR');
  process.exit(2);
}
const source = await template();
await rm(target, { recursive: true, force: true });
await mkdir(target, { recursive: true });
await cp(path.join(source, 'pglite'), path.join(target, 'pglite'), { recursive: true });
