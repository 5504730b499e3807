// Whether the built site matches what it is built from, and whether its renderer can bring it up to date.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readManifest } from '../export/export-catalogue.ts';
import { buildEnv, type SiteBuildOptions } from './site-options.ts';
import { PROJECT_ROOT } from './staging.ts';

/** What a built site records of itself, in SITE_DIR. */
export const STAMP_FILE = '.build-stamp.json';
const SOURCE_INPUTS = ['src', 'public', 'contract', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];

/** A built site's stamp: what it was built from, and the renderer that renders its data's pages. */
export interface SiteStamp {
  /** Of everything it was built from: code, settings and data. */
  fingerprint?: string;
  /** Of its code and settings alone: the renderer can render new data while this holds. */
  code?: string;
  /** The renderer bundle of this build (decision 043): a folder in the project, absent in old stamps. */
  renderer?: string;
  /** The files the renderer wrote (relative to the site): a page no longer rendered is removed. */
  pages?: string[];
}

/** The stamp of the site in SITE_DIR, or null when there is none (or it is unreadable). */
export async function readStamp(siteDir: string): Promise<SiteStamp | null> {
  return readFile(path.join(siteDir, STAMP_FILE), 'utf8').then(
    (text) => JSON.parse(text) as SiteStamp,
    () => null,
  );
}

/** The renderer's server entry inside its folder. */
export const rendererEntry = (renderer: string) => path.join(renderer, 'entry.mjs');

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
  const digests = options.digestsFile ? await readFile(options.digestsFile, 'utf8').catch(() => '') : '';
  hash.update(`digests\n${digests.trim() || '[]'}`);
  return hash.digest('hex');
}

/** A fingerprint of the code and settings: every source file's path, size and mtime (a deleted or renamed page changes it as surely as an edited one). */
async function codeFingerprint(options: SiteBuildOptions): Promise<string> {
  // Where the data lies is not part of the site: dataFingerprint hashes what it holds.
  const settings = Object.entries(buildEnv(options)).filter(
    ([name]) => !['CATALOGUE_DIR', 'PROFILES_FILE', 'DIGESTS_FILE'].includes(name),
  );
  const hash = createHash('sha256').update(JSON.stringify(settings.sort()));
  for (const input of SOURCE_INPUTS.map((p) => path.join(PROJECT_ROOT, p))) {
    hash.update((await listInputs(input)).join('\n'));
  }
  return hash.digest('hex');
}

/** What `siteState` found: why the site is stale, and how to bring it up to date. */
export interface SiteState {
  /** Why the built site must be brought up to date, or null when it matches its inputs. */
  reason: string | null;
  /** Of everything the site is built from, for the build to stamp. */
  fingerprint: string;
  /** Of the code and settings alone. */
  code: string;
  /** Only the data changed and the site's renderer is there: render its pages, no build (decision 043). */
  renderOnly: boolean;
}

/**
 * Why the built site must be rebuilt or rendered again (null when it matches its sources, data and
 * settings), the fingerprints of its inputs now for the build to stamp, and whether rendering the
 * data's pages is enough.
 */
export async function siteState(options: SiteBuildOptions): Promise<SiteState> {
  const stamp = await readStamp(options.siteDir);
  const code = await codeFingerprint(options);
  const fingerprint = createHash('sha256')
    .update(code)
    .update(await dataFingerprint(options))
    .digest('hex');
  const state = { fingerprint, code, renderOnly: false };
  if (!stamp) return { ...state, reason: 'no built site yet' };
  if (stamp.fingerprint === fingerprint) return { ...state, reason: null };
  if (stamp.code !== code) return { ...state, reason: 'its sources or settings changed' };
  const rendererThere =
    stamp.renderer !== undefined &&
    (await stat(rendererEntry(stamp.renderer)).then(
      () => true,
      () => false,
    ));
  // Without its renderer (removed with node_modules, or a site from before decision 043) it is built.
  return { ...state, reason: 'its data changed', renderOnly: rendererThere };
}

/** Why the built site must be rebuilt, or null when it matches its sources, data and settings. */
export async function staleReason(options: SiteBuildOptions): Promise<string | null> {
  return (await siteState(options)).reason;
}
