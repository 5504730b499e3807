/** The product under test: `server/main.ts` on a given site and data folder, pinned, logging warnings only. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import { startTracked, type Tracked } from './processes.ts';

/** High enough that a load run measures serving, not the rate limiter (the config's maximum). */
export const RATE_LIMIT_MULTIPLIER = 10_000;

/** Parent environment that must not reach the server: it would point it elsewhere. */
const FOREIGN_ENV = [
  'DATABASE_URL',
  'CATALOGUE_DIR',
  'SERVE_SITE',
  'NODE_ENV',
  'THREADS_APP_ID',
  'HOST',
  'PORT',
];

export interface ProductServerOptions {
  port: number;
  siteDir: string;
  dataDir: string;
  /** Default: DATA_DIR/catalogue. */
  catalogueDir?: string;
  /** Default: the committed sample (data/). */
  sampleDir?: string;
  core: number | null;
  /** How long it may take to answer /api/health (a stale site is built first). */
  timeoutMs?: number;
  /**
   * Paths that must all answer 200 before it counts as started (default: /api/health and /: a first
   * start answers pages 503 until its background build is served, decision 038).
   */
  readyPaths?: readonly string[];
  /** Settings beyond the bench's own (PUBLIC_POST_DISPLAY for the embed pages). */
  env?: Record<string, string>;
}

export type ProductServer = Tracked & {
  baseUrl: string;
  /** The environment it runs with (its configuration, as `loadConfig` reads it). */
  env: NodeJS.ProcessEnv;
  /** From spawn to every ready path answering 200. */
  startMs: number;
  /** Resolves once the server is idle (see `waitUntilIdle`). */
  settle(): Promise<void>;
};

/** CPU time a process used so far, in clock ticks (utime + stime of /proc/PID/stat). */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until `pid` used under 5% of a core for two seconds in a row: a server that is still
 * compressing a freshly built site, or rebuilding it, would otherwise be measured at half speed.
 */
async function waitUntilIdle(pid: number | undefined, timeoutMs = 3 * 60_000): Promise<void> {
  if (pid === undefined) return;
  const started = performance.now();
  let quiet = 0;
  let before = await cpuTicks(pid).catch(() => Number.NaN);
  while (quiet < 2 && performance.now() - started < timeoutMs) {
    await sleep(1000);
    const now = await cpuTicks(pid).catch(() => Number.NaN);
    // 100 ticks a second: under 5 is under 5%. No /proc: nothing to wait for.
    if (!Number.isFinite(now)) return;
    quiet = now - before < 5 ? quiet + 1 : 0;
    before = now;
  }
}

/** Whether every path answers 200 (in order: a later one is asked only once the earlier ones are). */
export async function answersAll(baseUrl: string, paths: readonly string[]): Promise<boolean> {
  for (const urlPath of paths) {
    const ok = await fetch(`${baseUrl}${urlPath}`).then(
      async (response) => {
        await response.arrayBuffer();
        return response.ok;
      },
      () => false,
    );
    if (!ok) return false;
  }
  return true;
}

/** Starts the server and waits until /api/health and / (or every `readyPaths`) answer 200, then until it is idle. */
export async function startProductServer(options: ProductServerOptions): Promise<ProductServer> {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !FOREIGN_ENV.includes(name)),
  );
  Object.assign(env, {
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    SITE_DIR: options.siteDir,
    DATA_DIR: options.dataDir,
    SAMPLE_CATALOGUE_DIR: options.sampleDir ?? path.join(PROJECT_ROOT, 'data'),
    CONTACT_EMAIL: 'bench@curated-threads.example',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MULTIPLIER: String(RATE_LIMIT_MULTIPLIER),
  });
  if (options.catalogueDir) env.CATALOGUE_DIR = options.catalogueDir;
  Object.assign(env, options.env);
  const started = performance.now();
  const server = startTracked(process.execPath, [path.join(PROJECT_ROOT, 'server/main.ts')], {
    env,
    core: options.core,
  });
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`the server exited early:\n${server.output().slice(-3000)}`);
    if (performance.now() - started > timeoutMs) {
      await server.stop();
      throw new Error(
        `the server did not answer within ${timeoutMs / 1000} s:\n${server.output().slice(-3000)}`,
      );
    }
    if (await answersAll(baseUrl, options.readyPaths ?? ['/api/health', '/'])) break;
    await sleep(250);
  }
  const startMs = performance.now() - started;
  await waitUntilIdle(server.child.pid);
  return { ...server, baseUrl, env, startMs, settle: () => waitUntilIdle(server.child.pid) };
}
