// The catalogue benchmark's sites: one synthetic catalogue, one build and one server per size.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManifestSchema } from '../../contract/manifest.ts';
import { ThreadCardListSchema } from '../../contract/thread-card.ts';
import {
  buildSite,
  PROJECT_ROOT,
  siteState,
  type SiteBuildOptions,
} from '../../server/publisher/build/build-site.ts';
import { catalogueFiles } from '../../server/publisher/export/catalogue-files.ts';
import { catalogueDatesFrom, writeCatalogue } from '../../server/publisher/export/export-catalogue.ts';
import { buildSampleCards } from '../sample/catalogue.ts';
import { answersAll } from './product-server.ts';

/** Every child process the benchmark started and has not seen exit: killed at the end, also on failure. */
const children = new Set<ChildProcess>();

/** Spawns `node` with the project's Node on `args`, tracked so that `killChildren` can end it. */
export function spawnNode(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** Kills every child still running (SIGKILL: also safe from a process 'exit' handler). */
export function killChildren(): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The folders of one size's run. */
export interface SizeSite {
  count: number;
  /** The synthetic sample (threads-all.json and manifest.json), as SAMPLE_CATALOGUE_DIR. */
  sampleDir: string;
  /** The server's DATA_DIR; its catalogue folder is where the site is built from. */
  dataDir: string;
  build: SiteBuildOptions;
}

export const CONTACT_EMAIL = 'bench@curated-threads.example';

/**
 * Writes a fresh `count`-thread sample under `dir` and the catalogue a server derives from it (the
 * same files the server's own export writes, so it finds nothing to change and no site to rebuild).
 */
export async function prepareSite(dir: string, count: number, now: Date, port: number): Promise<SizeSite> {
  await rm(dir, { recursive: true, force: true });
  const sampleDir = path.join(dir, 'sample');
  const dataDir = path.join(dir, 'data');
  const catalogueDir = path.join(dataDir, 'catalogue');
  await mkdir(sampleDir, { recursive: true });
  const dates = catalogueDatesFrom(now, 60);
  const { files } = catalogueFiles(buildSampleCards(count, now), dates);
  // Like `npm run data:sample`: only the top-level files; the server derives pages and search.
  for (const [name, body] of files.filter(([name]) => !name.includes('/'))) {
    await writeFile(path.join(sampleDir, name), body);
  }
  // The server's export reads the sample back through the schema: so does this one.
  const cards = ThreadCardListSchema.parse(
    JSON.parse(await readFile(path.join(sampleDir, 'threads-all.json'), 'utf8')),
  );
  const manifest = ManifestSchema.parse(
    JSON.parse(await readFile(path.join(sampleDir, 'manifest.json'), 'utf8')),
  );
  await writeCatalogue(catalogueDir, cards, {
    generatedAt: new Date(manifest.generatedAt),
    nextUpdate: new Date(manifest.nextUpdate),
  });
  return {
    count,
    sampleDir,
    dataDir,
    build: {
      siteDir: path.join(dir, 'site'),
      catalogueDir,
      publicUrl: `http://127.0.0.1:${port}`,
      contactEmail: CONTACT_EMAIL,
    },
  };
}

/**
 * Builds the site with `buildSite` (as the server would) `times` times, and returns how long each
 * build took, in ms: the first one also warms the disk cache and Astro's own caches.
 */
export async function timeBuilds(site: SizeSite, times = 2): Promise<number[]> {
  const durations: number[] = [];
  for (let build = 0; build < times; build++) {
    const started = performance.now();
    await buildSite(site.build, { capture: true });
    durations.push(performance.now() - started);
  }
  const { reason } = await siteState(site.build);
  if (reason) throw new Error(`the site just built is already stale (${reason})`);
  return durations;
}

async function stampOf(siteDir: string): Promise<string> {
  const file = path.join(siteDir, '.build-stamp.json');
  const info = await stat(file).catch(() => null);
  return info ? `${info.mtimeMs} ${await readFile(file, 'utf8')}` : 'none';
}

export interface BenchServer {
  baseUrl: string;
  /** From spawn to the first healthy answer: migrations, the export check, loading and compressing. */
  startMs: number;
  /** Whether the server built the site itself instead of serving the benchmark's build. */
  rebuilt: boolean;
  /** The server process's resident memory now and its high-water mark (VmRSS, VmHWM), in bytes. */
  memory(): Promise<{ rss: number; peak: number }>;
  stop(): Promise<void>;
}

async function processMemory(pid: number | undefined): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/** Environment of the parent that must not reach the server: it would point it elsewhere. */
const FOREIGN_ENV = ['DATABASE_URL', 'CATALOGUE_DIR', 'SERVE_SITE', 'NODE_ENV', 'THREADS_APP_ID', 'HOST'];

/**
 * Starts `server/main.ts` on the size's site and data, and waits until /api/health and / answer (a
 * first start serves pages only once its background build is done, decision 038).
 */
export async function startServer(
  site: SizeSite,
  port: number,
  { timeoutMs = 15 * 60_000 } = {},
): Promise<BenchServer> {
  const stampBefore = await stampOf(site.build.siteDir);
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !FOREIGN_ENV.includes(name)),
  );
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: site.build.publicUrl,
    SITE_DIR: site.build.siteDir,
    DATA_DIR: site.dataDir,
    SAMPLE_CATALOGUE_DIR: site.sampleDir,
    CONTACT_EMAIL,
    LOG_LEVEL: 'warn',
  });
  const started = performance.now();
  const child = spawnNode([path.join(PROJECT_ROOT, 'server/main.ts')], env);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // once() rejects on 'error' (the process could not be spawned): then there is nothing to wait for.
  const exited = once(child, 'exit').catch(() => undefined);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  const baseUrl = site.build.publicUrl;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the server exited early:\n${output.slice(-3000)}`);
      }
      if (performance.now() - started > timeoutMs) throw new Error(`the server did not start:\n${output}`);
      if (await answersAll(baseUrl, ['/api/health', '/'])) break;
      await sleep(200);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const startMs = performance.now() - started;
  const rebuilt = (await stampOf(site.build.siteDir)) !== stampBefore;
  return { baseUrl, startMs, rebuilt, memory: () => processMemory(child.pid), stop };
}
