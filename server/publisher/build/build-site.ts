import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeHostFiles } from './host/host-files.ts';
import { renderDataPages, stopRenderersUnder } from './render/page-renderer.ts';
import { childEnv, type SiteBuildOptions } from './site-options.ts';
import { readStamp, rendererEntry, siteState, STAMP_FILE, type SiteStamp } from './site-fingerprint.ts';
import { HEADERS_FILE } from './host/headers-file.ts';
import { isSiteFolder } from '../../http/site-files.ts';
import { withSiteLock, type SiteLockOptions } from './site-lock.ts';
import {
  linkedCopy,
  moveIntoPlace,
  PROJECT_ROOT,
  removeLeftoversExcept,
  removeOtherRenderers,
  rendererDirFor,
  stagingDirFor,
  stagingFolderFor,
} from './staging.ts';

export { PROJECT_ROOT } from './staging.ts';
export {
  catalogueExportFor,
  publishedDigestsFile,
  publishedProfilesFile,
  siteBuildOptionsFor,
  type SiteBuildOptions,
} from './site-options.ts';
export { siteState, staleReason, type SiteState } from './site-fingerprint.ts';
export { withSiteLock } from './site-lock.ts';

/**
 * Removes what killed builds and renders of SITE_DIR left (staging.ts), keeping the served site's
 * renderer, holding SITE_DIR's lock: a live process's build in progress is never taken for one.
 */
export async function removeLeftoverBuilds(siteDir: string, lock: SiteLockOptions = {}): Promise<string[]> {
  return withSiteLock(siteDir, () => removeLeftovers(siteDir), lock);
}

async function removeLeftovers(
  siteDir: string,
  onStuck?: (folder: string, error: Error) => void,
): Promise<string[]> {
  return removeLeftoversExcept(siteDir, (await readStamp(siteDir))?.renderer, onStuck);
}

/** What a process waiting for SITE_DIR's lock says. */
export const WAITING_FOR_SITE = 'Another process is writing the site folder; waiting for it.';

interface BuildOptions {
  /** Keep the build's output, and put its last lines into the error when it fails. */
  capture?: boolean;
  /** The fingerprints `siteState` took before (taken now when absent). */
  fingerprint?: string;
  code?: string;
  log?: (line: string) => void;
}

const WATCHDOG = pathToFileURL(path.join(import.meta.dirname, 'build-watchdog.ts')).href;

/** Runs `astro build` into `outDir` in a child process; its output streams through, or is kept with `capture`. */
async function astroBuild(options: SiteBuildOptions, outDir: string, capture: boolean): Promise<void> {
  const astro = path.join(
    path.dirname(createRequire(import.meta.url).resolve('astro/package.json')),
    'bin',
    'astro.mjs',
  );
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', WATCHDOG, astro, 'build', '--outDir', outDir], {
      cwd: PROJECT_ROOT,
      env: childEnv(options),
      // With a channel to us: the build stops when this process dies (build-watchdog.ts).
      stdio: [
        ...(capture ? (['pipe', 'pipe', 'pipe'] as const) : (['inherit', 'inherit', 'inherit'] as const)),
        'ipc',
      ],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) {
    const detail = capture
      ? `:\n${output.trim().split('\n').slice(-15).join('\n')}`
      : '; see its output above';
    throw new Error(`The site build failed (astro build exited with ${code})${detail}`);
  }
}

/**
 * Renders the data's pages into the staged site `site`, adds the host files (`_headers`, compressed
 * copies, the nginx block beside SITE_DIR; the catalogue in `data/` with `catalogueInSite`), stamps
 * it and swaps it in atomically: a failure anywhere leaves the previous site in place.
 */
async function completeAndSwap(
  options: SiteBuildOptions,
  site: string,
  suffix: string,
  stamp: Required<Omit<SiteStamp, 'pages'>>,
  log: (line: string) => void,
): Promise<void> {
  const pages = await renderDataPages({
    entry: rendererEntry(stamp.renderer),
    env: childEnv(options),
    siteDir: site,
    origin: options.publicUrl,
  });
  // The nginx block is written beside SITE_DIR, whose parent may not exist yet.
  await mkdir(path.dirname(options.siteDir), { recursive: true });
  const rendered = new Set(pages);
  for (const line of await writeHostFiles(site, options, options.siteDir, (file) => rendered.has(file)))
    log(line);
  await writeFile(path.join(site, STAMP_FILE), `${JSON.stringify({ ...stamp, pages })}\n`);
  await moveIntoPlace(site, options.siteDir, suffix);
}

/** Removes a staged build, and the site's staging folder unless another build of it is running. */
async function cleanUp(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
  await rmdir(path.dirname(staging)).catch(() => {});
}

/**
 * Runs `astro build` in a child process into a fresh folder inside the project (staging.ts: SITE_DIR
 * may be anywhere). Its pages and assets become the site; its server bundle becomes the site's
 * renderer (decision 043), kept in the project, which renders the pages the data decides into it.
 * Then the host files, and the swap: a failed build leaves the previous site in place. Holds
 * SITE_DIR's lock throughout (decision 064).
 */
export async function buildSite(options: SiteBuildOptions, buildOptions: BuildOptions = {}): Promise<void> {
  const log = buildOptions.log ?? (() => {});
  await withSiteLock(options.siteDir, () => build(options, buildOptions), {
    onWait: (holder) => log(`${WAITING_FOR_SITE} (pid ${holder.pid})`),
  });
}

async function build(
  options: SiteBuildOptions,
  { capture = false, fingerprint: known, code: knownCode, log = () => {} }: BuildOptions,
): Promise<void> {
  // Taken before the build: an input edited while it runs makes the next check see a stale site.
  const { fingerprint, code } =
    known && knownCode ? { fingerprint: known, code: knownCode } : await siteState(options);
  const suffix = randomBytes(4).toString('hex');
  const staging = stagingDirFor(options.siteDir, suffix);
  const renderer = rendererDirFor(options.siteDir, suffix);
  let swapped = false;
  try {
    await astroBuild(options, staging, capture);
    // Beside the staged builds, inside the project: the bundle imports its packages by name.
    await rename(path.join(staging, 'server'), renderer);
    const site = path.join(staging, 'client');
    await completeAndSwap(options, site, suffix, { fingerprint, code, renderer }, log);
    swapped = true;
    stopRenderersUnder(stagingFolderFor(options.siteDir), renderer);
    await removeOtherRenderers(options.siteDir, renderer);
  } finally {
    if (!swapped) await rm(renderer, { recursive: true, force: true });
    await cleanUp(staging);
  }
}

interface RenderOptions {
  fingerprint: string;
  code: string;
  log?: ((line: string) => void) | undefined;
}

/**
 * Brings the site up to date after its data changed, without a build (decision 043): a copy of the
 * served site, the data's pages rendered into it by the site's renderer (a page no longer rendered,
 * of a topic or profile that is gone, removed), the host files again, the swap. `siteState` must have
 * said `renderOnly`. Holds SITE_DIR's lock throughout.
 */
export async function renderSite(options: SiteBuildOptions, renderOptions: RenderOptions): Promise<void> {
  await withSiteLock(options.siteDir, () => render(options, renderOptions));
}

async function render(
  options: SiteBuildOptions,
  { fingerprint, code, log = () => {} }: RenderOptions,
): Promise<void> {
  const stamp = await readStamp(options.siteDir);
  if (!stamp?.renderer || stamp.code !== code)
    throw new Error('The built site has no renderer for this code');
  const suffix = randomBytes(4).toString('hex');
  const staging = stagingDirFor(options.siteDir, suffix);
  try {
    // Links to the served site's files but those this pass writes again: the pages the last render
    // wrote (one no longer rendered is gone), the compressed copies (linked back when unchanged),
    // `_headers` and the stamp. The host files then write only new files: the served site never changes.
    const written = new Set([...(stamp.pages ?? []), HEADERS_FILE, STAMP_FILE]);
    const compressedCopy = (file: string) =>
      /\.(br|gz)$/.test(file) && isSiteFolder(path.posix.dirname(file).split('/')[0] ?? '');
    await linkedCopy(options.siteDir, staging, (file) => written.has(file) || compressedCopy(file));
    await completeAndSwap(options, staging, suffix, { fingerprint, code, renderer: stamp.renderer }, log);
  } finally {
    await cleanUp(staging);
  }
}

/** What `updateSite` tells as it goes: the server's logger has this shape. */
export interface SiteUpdateLog {
  info(message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * A publish's site step (decision 064): holding SITE_DIR's lock, removes what killed builds left,
 * then decides, and builds, renders the data's pages (decision 043) or leaves the site as it is.
 * Decided under the lock: another server sharing the folder may have just built it from the same
 * inputs. Returns why the site was brought up to date (null: it was).
 */
export async function updateSite(
  options: SiteBuildOptions,
  { log, capture = false }: { log: SiteUpdateLog; capture?: boolean },
): Promise<string | null> {
  const onWait = (holder: { pid: number; host?: string | undefined }) =>
    log.info({ siteDir: options.siteDir, holder: holder.pid, host: holder.host }, WAITING_FOR_SITE);
  return withSiteLock(
    options.siteDir,
    async () => {
      const stuck = (folder: string, error: Error) =>
        log.warn({ folder, err: error }, 'A folder a stopped build left behind could not be removed yet.');
      for (const removed of await removeLeftovers(options.siteDir, stuck))
        log.info({ removed }, 'Removed a folder a stopped build left behind.');
      const { reason, fingerprint, code, renderOnly } = await siteState(options);
      if (!reason) return null;
      if (renderOnly) {
        log.info(`Rendering the site's pages (${reason})...`);
        await render(options, { fingerprint, code });
      } else {
        log.info(`Building the site (${reason})...`);
        await build(options, { capture, fingerprint, code });
      }
      return reason;
    },
    { onWait },
  );
}
