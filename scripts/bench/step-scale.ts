/**
 * The scale table (issue 19): at each size (1k and 100k approved threads; 1M with --million), a
 * PGlite database of that many approved threads and a few pending ones, then
 * - the memory the export adds: `exportCatalogue` in a process of its own (catalogue-export.ts),
 *   its sampled peak RSS minus its RSS before exporting, once PGlite (in that process) has read the
 *   rows and grown to hold them, which any reader pays and a PostgreSQL server pays elsewhere;
 * - server start-up: the product started on that database (a second time: the first one exports and
 *   builds the site), from spawn to /api/health answering 200 and / served; its idle RSS once settled;
 * - approval to visible: the admin approves a pending thread through the API; until it is in the
 *   served /data/pages/all/1.json and in the served home HTML.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import { siteClient } from '../../tests/integration/helpers/site-client.ts';
import type { ExportResult } from './catalogue-export.ts';
import type { StepContext } from './context.ts';
import { asLive, waitUntilPublished } from './live-server.ts';
import { runNode, tempDir } from './processes.ts';
import { startProductServer, type ProductServerOptions } from './product-server.ts';
import type { ScaleResult, ScaleSize } from './results.ts';
import { pendingThreads, timeApprovals } from './step-approval.ts';

const EXPORT_SCRIPT = path.join(PROJECT_ROOT, 'scripts/bench/catalogue-export.ts');
/**
 * How long a start or an approval may take at the largest sizes: the first start exports the whole
 * catalogue and builds the site, which takes minutes at 1M on a busy machine.
 */
const SLOW_MS = 60 * 60_000;

/** A process's resident memory now (VmRSS of /proc/PID/status), in bytes. */
export async function residentBytes(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

/** The JSON line a helper script printed last. */
function lastJson<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T;
}

async function measureSize(context: StepContext, threads: number): Promise<ScaleSize> {
  const { progress, pinning, options } = context;
  const size = threads.toLocaleString('en-US');
  const dir = tempDir(`scale-${threads}`);
  progress(`scale: inserting ${size} approved threads into PGlite (not timed)…`);
  await runNode([EXPORT_SCRIPT, 'insert', dir, String(threads), String(options.approvals)]);
  progress(`scale: exporting ${size} approved threads in a process of its own, cold then warm…`);
  const exported = lastJson<ExportResult>(await runNode([EXPORT_SCRIPT, 'export', dir], pinning.serverCore));
  if (exported.approved !== threads + options.approvals)
    throw new Error(`the database holds ${exported.approved} threads, not ${threads + options.approvals}`);
  const server: ProductServerOptions = {
    port: context.port('product'),
    siteDir: path.join(dir, 'site', 'dist'),
    // catalogue-export.ts keeps PGlite in DIR/db/pglite, where the server looks for it in DATA_DIR.
    dataDir: path.join(dir, 'db'),
    core: pinning.serverCore,
    readyPaths: ['/api/health', '/'],
    timeoutMs: SLOW_MS,
  };
  progress(`scale: first start on ${size} threads (it exports the catalogue and builds the site)…`);
  const first = await startProductServer(server);
  await first.stop();
  progress(`scale: starting again on ${size} threads (start-up, idle memory)…`);
  const product = await startProductServer(server);
  try {
    // startProductServer returns once the server is idle: this is its settled memory.
    const idleRss = await residentBytes(product.child.pid);
    progress(
      `scale: ${size}: started in ${Math.round(product.startMs)} ms, idle at ${Math.round(idleRss / 1e6)} MB`,
    );
    const live = asLive(product);
    await waitUntilPublished(live, async () => true, 'the site at start', SLOW_MS);
    const base = product.baseUrl;
    const admin = await siteClient(base).signIn(base, 'admin');
    const pending = await pendingThreads(live, admin, options.approvals);
    const approval = await timeApprovals(
      live,
      admin,
      pending,
      (message) => progress(`scale: ${size}: ${message}`),
      SLOW_MS,
    );
    return {
      threads,
      exportColdMs: exported.cold.ms,
      exportWarmMs: exported.warm.ms,
      exportRssOpen: exported.rssOpen,
      exportRssBefore: exported.rssBefore,
      exportPeakRss: exported.cold.sampledPeakRss,
      exportAddedBytes: exported.cold.sampledPeakRss - exported.rssBefore,
      firstStartMs: first.startMs,
      startMs: product.startMs,
      idleRss,
      approval,
    };
  } finally {
    await product.stop();
  }
}

export async function measureScale(context: StepContext): Promise<ScaleResult> {
  const sizes: ScaleSize[] = [];
  for (const threads of context.options.scaleCounts) sizes.push(await measureSize(context, threads));
  return { sizes };
}
