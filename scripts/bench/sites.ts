/**
 * The sites the benchmark serves and builds: synthetic catalogues of tests/large-catalogue.ts at a
 * given size, the catalogue a server derives from them, and their builds. The ones it serves are
 * cached under test-output/bench/site-<count>/, rebuilt only when their inputs changed.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema } from '../../contract/manifest.ts';
import { ThreadCardListSchema } from '../../contract/thread-card.ts';
import {
  buildSite,
  PROJECT_ROOT,
  siteState,
  type SiteBuildOptions,
} from '../../server/publisher/build/build-site.ts';
import { writeCatalogue } from '../../server/publisher/export/export-catalogue.ts';
import { catalogueFiles } from '../../server/publisher/export/catalogue-files.ts';
import { LARGE_CATALOGUE, writeLargeCatalogue } from '../../tests/large-catalogue.ts';
import { buildSampleCards } from '../sample/catalogue.ts';

export const BENCH_ROOT = path.join(PROJECT_ROOT, 'test-output', 'bench');

/** What the synthetic catalogue is made from: a change to any of these makes a new one. */
const GENERATOR_FILES = [
  'tests/large-catalogue.ts',
  'scripts/sample/catalogue.ts',
  'server/publisher/export/catalogue-files.ts',
];

export interface BenchSite {
  count: number;
  /** The synthetic sample (SAMPLE_CATALOGUE_DIR of its server). */
  sampleDir: string;
  /** The catalogue a server derives from the sample (its CATALOGUE_DIR). */
  catalogueDir: string;
  build: SiteBuildOptions;
}

/** The large catalogue's date: a smaller sample is the same generator's, on the same day. */
const SAMPLE_DATE = new Date('2026-11-20T12:00:00.000Z');

/**
 * The large catalogue's spec files for `count` threads; below its search needle's position (the
 * smoke's small sites), the same generator's cards without the needle, which no bench step searches.
 */
async function writeSample(dir: string, count: number): Promise<void> {
  if (count > LARGE_CATALOGUE.needlePosition) return writeLargeCatalogue(dir, count);
  const dates = { generatedAt: SAMPLE_DATE, nextUpdate: new Date(SAMPLE_DATE.getTime() + 60 * 60_000) };
  const { files } = catalogueFiles(buildSampleCards(count, SAMPLE_DATE, 11), dates);
  await mkdir(dir, { recursive: true });
  for (const [name, body] of files.filter(([name]) => !name.includes('/')))
    await writeFile(path.join(dir, name), body);
}

/**
 * Writes a `count`-thread sample into `dir`/sample and the catalogue the server would export from it
 * into `dir`/catalogue (the same files, so a server started on them finds nothing to change).
 */
export async function writeSyntheticCatalogue(
  dir: string,
  count: number,
): Promise<{ sampleDir: string; catalogueDir: string }> {
  const sampleDir = path.join(dir, 'sample');
  const catalogueDir = path.join(dir, 'catalogue');
  await rm(sampleDir, { recursive: true, force: true });
  await rm(catalogueDir, { recursive: true, force: true });
  await writeSample(sampleDir, count);
  const read = async (name: string) =>
    JSON.parse(await readFile(path.join(sampleDir, name), 'utf8')) as unknown;
  const cards = ThreadCardListSchema.parse(await read('threads-all.json'));
  const manifest = ManifestSchema.parse(await read('manifest.json'));
  await mkdir(catalogueDir, { recursive: true });
  await writeCatalogue(catalogueDir, cards, {
    generatedAt: new Date(manifest.generatedAt),
    nextUpdate: new Date(manifest.nextUpdate),
  });
  return { sampleDir, catalogueDir };
}

async function generatorKey(count: number): Promise<string> {
  const hash = createHash('sha256').update(`count ${count}\n`);
  // A small sample is written by writeSample here (this file is not hashed for the large ones, whose
  // cached 100,000-thread site would otherwise be rebuilt after any edit of this file).
  const files =
    count > LARGE_CATALOGUE.needlePosition ? GENERATOR_FILES : [...GENERATOR_FILES, 'scripts/bench/sites.ts'];
  for (const file of files) hash.update(await readFile(path.join(PROJECT_ROOT, file)));
  return hash.digest('hex');
}

/** The site options of a catalogue served at `publicUrl`. */
export function siteOptions(dir: string, catalogueDir: string, publicUrl: string): SiteBuildOptions {
  return {
    siteDir: path.join(dir, 'site'),
    catalogueDir,
    publicUrl,
    contactEmail: 'bench@curated-threads.example',
  };
}

/**
 * The cached `count`-thread site for a server at `publicUrl`: its catalogue is regenerated when the
 * generator changed, its site rebuilt when `siteState` (sources, data, settings) says it is stale.
 */
export async function cachedSite(
  count: number,
  publicUrl: string,
  progress: (message: string) => void,
): Promise<BenchSite> {
  const dir = path.join(BENCH_ROOT, `site-${count}`);
  const keyFile = path.join(dir, 'catalogue-key.txt');
  const key = await generatorKey(count);
  const sampleDir = path.join(dir, 'sample');
  const catalogueDir = path.join(dir, 'catalogue');
  if ((await readFile(keyFile, 'utf8').catch(() => '')) !== key) {
    progress(`writing the ${count.toLocaleString('en-US')}-thread catalogue (cached for next time)…`);
    await mkdir(dir, { recursive: true });
    await writeSyntheticCatalogue(dir, count);
    await writeFile(keyFile, key);
  } else progress(`the ${count.toLocaleString('en-US')}-thread catalogue is cached`);
  const build = siteOptions(dir, catalogueDir, publicUrl);
  const { reason, fingerprint } = await siteState(build);
  if (reason) {
    progress(`building the ${count.toLocaleString('en-US')}-thread site (${reason}); cached for next time…`);
    const started = performance.now();
    await buildSite(build, { capture: true, fingerprint });
    progress(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } else progress(`the ${count.toLocaleString('en-US')}-thread site is cached and up to date`);
  return { count, sampleDir, catalogueDir, build };
}
