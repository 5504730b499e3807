import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openPglite } from '../../../server/db/client.ts';
import { createThreadsRepository } from '../../../server/repositories/threads.ts';
import { readManifest } from '../../../server/publisher/export/export-catalogue.ts';
import { settledRun, signInCurator } from '../auth/helpers.ts';
import { startServerProcess, waitUntilListening } from '../helpers/server-process.ts';
import { migratedDataDir } from '../helpers/migrated-data-dir.ts';

const CLI = path.resolve(import.meta.dirname, '../../../scripts/curate.ts');

/** Runs `npm run curate`'s script to the end; returns its exit code and everything it printed. */
async function runCli(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI], { env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

// A real server process and the real CLI on one embedded data folder (DATABASE_URL cleared).
test('npm run curate refuses while a server holds the embedded database, then runs with the server’s tokens', async () => {
  const dataDir = await migratedDataDir('ct-curate-cli-');
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' };
  const server = await startServerProcess(env);
  await waitUntilListening(server);
  // The admin connects the curation account on the server: its token is what the searches use.
  const base = `http://127.0.0.1:${server.port}`;
  // Its first sign-in starts a run on the server (decision 024): the server's own, done before it stops.
  expect((await settledRun(base, await signInCurator(base))).status).toBe('succeeded');

  const refused = await runCli(env);
  expect(refused.code).toBe(1);
  expect(refused.output).toContain('A running server holds the embedded database');
  expect(refused.output).toContain('Refresh now');

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);

  // The server exported a catalogue; the CLI must write its own.
  const catalogueDir = path.join(dataDir, 'catalogue');
  await rm(catalogueDir, { recursive: true, force: true });
  const ran = await runCli(env);
  expect(ran.output).toContain('Curating (Threads: simulated, embedded PGlite)...');
  expect(ran.output).toMatch(/keyword "typography" RECENT (since \S+ )?\(1 page\): \d+ found/i);
  expect(ran.output).toContain(`Catalogue exported to ${catalogueDir}`);
  expect(ran.code).toBe(0);
  // Like the server after a run, the CLI exports the catalogue.
  expect(await readManifest(catalogueDir)).toMatchObject({ generatedAt: expect.any(String) });

  const database = await openPglite(dataDir);
  try {
    const pending = await createThreadsRepository(database.db).listPending();
    expect(pending.length).toBeGreaterThan(0);
    expect(new Set(pending.map((thread) => thread.source))).toEqual(new Set(['public_search', 'public_tag']));
  } finally {
    await database.close();
  }
  // The server's first run rebuilds its site (decision 024), and stopping waits for that build.
}, 120_000);
