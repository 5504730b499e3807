import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openPglite } from '../../../server/db/client.ts';
import { createAppMetaRepository } from '../../../server/repositories/app-meta.ts';
import { VERSION } from '../../../server/version.ts';
import { startServerProcess, waitUntilListening } from '../helpers/server-process.ts';

// These tests start real server processes on embedded PGlite folders of their own (DATABASE_URL cleared).
describe('one process per embedded data folder', () => {
  // A first start builds the site: on a loaded machine that alone can pass Vitest's 30 s.
  test(
    'a second server on the same folder refuses to start; the first shuts down cleanly on SIGTERM',
    { timeout: 180_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-data-'));
      const first = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
      await waitUntilListening(first);
      expect(first.output()).toContain(`Curated Threads is running at`);

      const health = await fetch(`http://127.0.0.1:${first.port}/api/health`);
      expect(health.status).toBe(200);

      const second = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(
        `Another Curated Threads process (pid ${first.child.pid}) is using the data folder`,
      );
      // The refused process did not take the folder: the first still answers.
      expect((await fetch(`http://127.0.0.1:${first.port}/api/health`)).status).toBe(200);

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);

      // The database closed cleanly: it reopens, migrated, with what the server wrote at start.
      const database = await openPglite(dataDir);
      try {
        expect(await createAppMetaRepository(database.db).get('last_started_version')).toBe(VERSION);
      } finally {
        await database.close();
      }
    },
  );

  test('a bad setting stops the start with a readable message and exit code 1', async () => {
    const server = await startServerProcess({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration:\n  PORT: must be a number (got "eighty")');
  });
});
