import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { writeHostFiles } from './host/host-files.ts';
import { SIMULATED_PREFIX } from '../../threads/settings.ts';
import { readManifest, type CatalogueExport } from '../export/export-catalogue.ts';
import { localOrigin } from '../../http/loopback.ts';
import { moveIntoPlace, PROJECT_ROOT, stagingDirFor } from './staging.ts';

export { PROJECT_ROOT } from './staging.ts';
const STAMP_FILE = '.build-stamp.json';
const SOURCE_INPUTS = ['src', 'public', 'contract', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];

export interface SiteBuildOptions {
  siteDir: string;
  catalogueDir: string;
  /** Baked into canonical URLs, OpenGraph tags and the sitemap. */
  publicUrl: string;
  contactEmail: string | undefined;
  /** Approved members' profiles to pre-render (export-profiles.ts); none when absent. */
  profilesFile?: string | undefined;
  /** The origin the pages call the API on (API_BASE_URL); absent: their own origin (`/api/...`). */
  apiBaseUrl?: string | undefined;
  /** Where the Node server listens, for the nginx block written beside the site (not a build input). */
  apiUpstream?: string | undefined;
  /** Path prefixes only Node answers besides /api/ (the simulated provider's), for the nginx block. */
  nodePaths?: readonly string[] | undefined;
  /** A copy of the catalogue in the site's `data/`, for static hosts (`npm run build`); see host-files.ts. */
  catalogueInSite?: boolean | undefined;
}

/** What the server exports into the catalogue it builds from and serves. */
export function catalogueExportFor(config: Config): CatalogueExport {
  return {
    catalogueDir: config.catalogueDir,
    sampleCatalogueDir: config.sampleCatalogueDir,
    refreshIntervalMinutes: config.refreshIntervalMinutes,
    pictureBaseUrl: config.apiBaseUrl,
  };
}

/** The build settings a server configuration implies. */
export function siteBuildOptionsFor(config: Config): SiteBuildOptions {
  return {
    siteDir: config.siteDir,
    catalogueDir: config.catalogueDir,
    publicUrl: config.publicUrl.origin,
    contactEmail: config.contactEmail,
    profilesFile: publishedProfilesFile(config),
    apiBaseUrl: config.apiBaseUrl,
    apiUpstream: localOrigin(config.host, config.port),
    nodePaths: config.threads.mode === 'simulated' ? [`${SIMULATED_PREFIX}/`] : [],
  };
}

/** Where the server exports the approved profiles that the build pre-renders. */
export function publishedProfilesFile(config: Config): string {
  return path.join(config.dataDir, 'site-data', 'profiles.json');
}

/** Environment the Astro build reads. */
function buildEnv(options: SiteBuildOptions): Record<string, string> {
  const env: Record<string, string> = {
    PUBLIC_URL: options.publicUrl,
    CATALOGUE_DIR: options.catalogueDir,
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  if (options.contactEmail) env.CONTACT_EMAIL = options.contactEmail;
  if (options.profilesFile) env.PROFILES_FILE = options.profilesFile;
  // Part of the fingerprint like every other setting here: another API origin rebuilds the site.
  if (options.apiBaseUrl) env.API_BASE_URL = options.apiBaseUrl;
  return env;
}

async function listInputs(target: string): Promise<string[]> {
  const info = await stat(target).catch(() => null);
  if (!info) return [`${target} missing`];
  if (!info.isDirectory()) return [`${target} ${info.size} ${info.mtimeMs}`];
  const entries = await readdir(target, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  const lines = await Promise.all(
    files.map(async (file) => {
      const { size, mtimeMs } = await stat(file);
      return `${file} ${size} ${mtimeMs}`;
    }),
  );
  return lines.sort();
}

/** Hashes a file as it streams: the whole catalogue files of a large catalogue are never held. */
async function hashFile(hash: ReturnType<typeof createHash>, file: string): Promise<void> {
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    hash.update('missing');
  }
}

/**
 * The content of the data the build reads, by name: the same data in another folder is the same
 * site. With pages (the server's export) the build reads only the heads of the lists (decision 035),
 * so only those are hashed, at any catalogue size; a folder without pages (the committed sample) is
 * read, and hashed, whole.
 */
async function dataFingerprint(options: SiteBuildOptions): Promise<string> {
  const hash = createHash('sha256');
  const dir = options.catalogueDir;
  const manifest = await readManifest(dir);
  // The manifest's dates only date the catalogue: the island shows the served one, so a newer date
  // alone does not rebuild the site (the pre-rendered freshness line may lag until the next rebuild).
  if (manifest) hash.update(JSON.stringify({ ...manifest, generatedAt: null, nextUpdate: null }));
  const topics = await readdir(path.join(dir, 'pages', 'topics')).catch(() => null);
  const heads = await stat(path.join(dir, 'pages', 'all', '1.json')).then(
    () => true,
    () => false,
  );
  const names = heads
    ? [
        ...[1, 2, 3].map((page) => `pages/all/${page}.json`),
        // The filter pages' first cards.
        'pages/text/1.json',
        'pages/images/1.json',
        ...(topics ?? []).sort().map((slug) => `pages/topics/${slug}/1.json`),
      ]
    : (await readdir(dir).catch(() => []))
        .filter((name) => name.endsWith('.json') && name !== 'manifest.json')
        .sort();
  for (const name of names) {
    hash.update(`${name}\n`);
    await hashFile(hash, path.join(dir, ...name.split('/')));
  }
  // No profiles file and an empty list build the same pages.
  const profiles = options.profilesFile ? await readFile(options.profilesFile, 'utf8').catch(() => '') : '';
  hash.update(`profiles\n${profiles.trim() || '[]'}`);
  return hash.digest('hex');
}

/**
 * A fingerprint of everything the build reads: settings, every source file's path, size and mtime
 * (a deleted or renamed page changes it as surely as an edited one), and the data's content.
 */
async function inputFingerprint(options: SiteBuildOptions): Promise<string> {
  // Where the data lies is not part of the site: dataFingerprint hashes what it holds.
  const settings = Object.entries(buildEnv(options)).filter(
    ([name]) => name !== 'CATALOGUE_DIR' && name !== 'PROFILES_FILE',
  );
  const hash = createHash('sha256').update(JSON.stringify(settings.sort()));
  for (const input of SOURCE_INPUTS.map((p) => path.join(PROJECT_ROOT, p))) {
    hash.update((await listInputs(input)).join('\n'));
  }
  return hash.update(await dataFingerprint(options)).digest('hex');
}

/**
 * Why the built site must be rebuilt (null when it matches its sources, data and settings), and the
 * fingerprint of its inputs now, for `buildSite` to stamp.
 */
export async function siteState(
  options: SiteBuildOptions,
): Promise<{ reason: string | null; fingerprint: string }> {
  const stamp = (await readFile(path.join(options.siteDir, STAMP_FILE), 'utf8').then(
    JSON.parse,
    () => null,
  )) as {
    fingerprint?: string;
  } | null;
  const fingerprint = await inputFingerprint(options);
  if (!stamp) return { reason: 'no built site yet', fingerprint };
  if (stamp.fingerprint !== fingerprint)
    return { reason: 'its sources, data or settings changed', fingerprint };
  return { reason: null, fingerprint };
}

/** Why the built site must be rebuilt, or null when it matches its sources, data and settings. */
export async function staleReason(options: SiteBuildOptions): Promise<string | null> {
  return (await siteState(options)).reason;
}

/**
 * Runs `astro build` in a child process into a fresh folder inside the project (staging.ts: SITE_DIR
 * may be anywhere), adds the host files (the catalogue in `data/`, `_headers`, precompressed copies,
 * the nginx block beside SITE_DIR), then swaps it in: a failed build leaves the previous site in place. Its output streams through, or with `capture` is kept and the last
 * lines of it go into the error when the build fails.
 */
export async function buildSite(
  options: SiteBuildOptions,
  {
    capture = false,
    fingerprint: known,
    log = () => {},
  }: { capture?: boolean; fingerprint?: string; log?: (line: string) => void } = {},
): Promise<void> {
  // Taken before the build: an input edited while it runs makes the next check see a stale site.
  const fingerprint = known ?? (await inputFingerprint(options));
  const suffix = randomBytes(4).toString('hex');
  const staging = stagingDirFor(options.siteDir, suffix);
  const astro = path.join(
    path.dirname(createRequire(import.meta.url).resolve('astro/package.json')),
    'bin',
    'astro.mjs',
  );
  try {
    let output = '';
    const code = await new Promise<number | null>((resolve, reject) => {
      // API_BASE_URL comes from the options alone: one left in our environment would be baked into
      // a site whose fingerprint says same-origin.
      const inherited = { ...process.env };
      delete inherited.API_BASE_URL;
      const child = spawn(process.execPath, [astro, 'build', '--outDir', staging], {
        cwd: PROJECT_ROOT,
        env: { ...inherited, ...buildEnv(options) },
        stdio: capture ? 'pipe' : 'inherit',
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
    // The nginx block is written beside SITE_DIR, whose parent may not exist yet.
    await mkdir(path.dirname(options.siteDir), { recursive: true });
    for (const line of await writeHostFiles(staging, options, options.siteDir)) log(line);
    await writeFile(path.join(staging, STAMP_FILE), `${JSON.stringify({ fingerprint })}\n`);
    await moveIntoPlace(staging, options.siteDir, suffix);
  } finally {
    await rm(staging, { recursive: true, force: true });
    // The site's staging folder too, unless another build of it is running (then it is not empty).
    await rmdir(path.dirname(staging)).catch(() => {});
  }
}
