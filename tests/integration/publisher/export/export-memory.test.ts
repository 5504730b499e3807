import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { ManifestSchema } from '../../../../contract/manifest.ts';
import type { ExportResult, InsertResult } from '../../../../scripts/bench/catalogue-export.ts';

// The export of 100,000 approved threads in bounded memory: the benchmark's own child process
// (scripts/bench/catalogue-export.ts) inserts them into a PGlite database of its own and exports
// them, so the memory it reports is the export's alone, not the test runner's. The figure is
// printed; what is asserted is only what holds on any machine: far below what holding the whole
// catalogue took (1.47 GB of peak RSS at 100,000 threads, of which some 570 MB the export's).

const COUNT = 100_000;
const MB = 1024 * 1024;
/** The export's own memory, above what the process held with the database open, must stay below this. */
const ADDED_LIMIT = 400 * MB;

const run = promisify(execFile);
const script = path.resolve('scripts/bench/catalogue-export.ts');
let dir = '';

afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

async function helper<T>(...args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [script, ...args], {
    maxBuffer: 1024 * 1024,
    timeout: 15 * 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T;
}

test(
  'exporting 100,000 approved threads adds a bounded amount of memory, printed',
  async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ct-export-memory-'));
    const inserted = await helper<InsertResult>('insert', dir, String(COUNT));
    expect(inserted.inserted).toBe(COUNT);
    const result = await helper<ExportResult>('export', dir);

    const added = result.cold.sampledPeakRss - result.rssBefore;
    const addedWarm = result.warm.sampledPeakRss - result.rssBefore;
    console.log(
      `export of ${COUNT.toLocaleString('en-US')} approved threads: memory added ${(added / MB).toFixed(0)} MB ` +
        `(RSS ${(result.rssBefore / MB).toFixed(0)} MB with the database open, peak ${(result.cold.sampledPeakRss / MB).toFixed(0)} MB); ` +
        `unchanged again: ${(addedWarm / MB).toFixed(0)} MB added; ${result.files} files, ${(result.bytes / MB).toFixed(0)} MB`,
    );
    expect(result.approved).toBe(COUNT);
    expect(result.cold.dataChanged).toBe(true);
    expect(result.warm.dataChanged).toBe(false);
    expect(added).toBeLessThan(ADDED_LIMIT);
    expect(addedWarm).toBeLessThan(ADDED_LIMIT);

    // It exported everything: the manifest counts every thread, and All has every page.
    const catalogueDir = path.join(dir, 'catalogue');
    const manifest = ManifestSchema.parse(
      JSON.parse(await readFile(path.join(catalogueDir, 'manifest.json'), 'utf8')),
    );
    expect(manifest.counts?.all).toBe(COUNT);
    const pages = (await readdir(path.join(catalogueDir, 'pages/all'))).filter((name) =>
      name.endsWith('.json'),
    );
    expect(pages).toHaveLength(Math.ceil(COUNT / 24));
  },
  30 * 60_000,
);
