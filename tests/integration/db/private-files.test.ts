import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openPglite } from '../../../server/db/client.ts';
import { migratedDataDir } from '../helpers/migrated-data-dir.ts';

// Issue 34: PGlite writes its files -rw-rw-rw-; under umask 022 in a 0755 folder any local user could
// read or change the database. Its folder is the owner's alone whatever the umask, while DATA_DIR
// stays open enough for nginx to reach the catalogue folder in it (decision 041).

const mode = async (file: string) => (await stat(file)).mode & 0o777;
let umask: number | undefined;

afterEach(() => {
  if (umask !== undefined) process.umask(umask);
  umask = undefined;
});

test('the embedded database folder is 0700 under an open umask, even when it was made open before', async () => {
  const dataDir = await migratedDataDir('ct-private-');
  const pglite = path.join(dataDir, 'pglite');
  await chmod(dataDir, 0o755);
  await chmod(pglite, 0o777);
  await mkdir(path.join(dataDir, 'catalogue'), { mode: 0o755 });
  umask = process.umask(0);

  const database = await openPglite(dataDir);
  try {
    expect(await mode(pglite)).toBe(0o700);
    // DATA_DIR and the public catalogue folder keep their modes: the web server reads the catalogue.
    expect(await mode(dataDir)).toBe(0o755);
    expect(await mode(path.join(dataDir, 'catalogue'))).toBe(0o755);
  } finally {
    await database.close();
  }
});
