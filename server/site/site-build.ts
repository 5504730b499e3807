import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The repository root: the site's sources are read relative to it. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
const STAMP_FILE = '.build-stamp.json';

export interface SiteBuildOptions {
  siteDir: string;
  catalogueDir: string;
  /** Baked into canonical URLs, OpenGraph tags and the sitemap. */
  publicUrl: string;
  contactEmail: string | undefined;
}

/** Environment the Astro build reads; a change in any of them makes the built pages stale. */
function buildEnv(options: SiteBuildOptions): Record<string, string> {
  const env: Record<string, string> = {
    PUBLIC_URL: options.publicUrl,
    CATALOGUE_DIR: options.catalogueDir,
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  if (options.contactEmail) env.CONTACT_EMAIL = options.contactEmail;
  return env;
}

function fingerprint(env: Record<string, string>): string {
  return createHash('sha256')
    .update(JSON.stringify(Object.entries(env).sort()))
    .digest('hex');
}

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(target, { recursive: true, withFileTypes: true });
  const times = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map((e) => stat(path.join(e.parentPath, e.name)).then((s) => s.mtimeMs)),
  );
  return Math.max(info.mtimeMs, ...times);
}

/** Why the built site must be rebuilt, or null when it is up to date with its sources, data and settings. */
export async function staleReason(options: SiteBuildOptions): Promise<string | null> {
  const stampPath = path.join(options.siteDir, STAMP_FILE);
  const stamp = (await readFile(stampPath, 'utf8').then(JSON.parse, () => null)) as {
    fingerprint?: string;
  } | null;
  if (!stamp) return 'no built site yet';
  if (stamp.fingerprint !== fingerprint(buildEnv(options))) return 'the site settings changed';
  const builtAt = (await stat(stampPath)).mtimeMs;
  const inputs = ['src', 'public', 'contract', 'astro.config.mjs', 'package.json'].map((p) =>
    path.join(PROJECT_ROOT, p),
  );
  for (const input of [...inputs, options.catalogueDir]) {
    if ((await newestMtime(input)) > builtAt) return `${path.relative(PROJECT_ROOT, input) || input} changed`;
  }
  return null;
}

/** Runs `astro build` in a child process (its output streams through), then stamps the result. */
export async function buildSite(options: SiteBuildOptions): Promise<void> {
  const env = buildEnv(options);
  const astro = path.join(
    path.dirname(createRequire(import.meta.url).resolve('astro/package.json')),
    'bin',
    'astro.mjs',
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [astro, 'build', '--outDir', options.siteDir], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0)
    throw new Error(`The site build failed (astro build exited with ${code}); see its output above.`);
  await writeFile(
    path.join(options.siteDir, STAMP_FILE),
    `${JSON.stringify({ fingerprint: fingerprint(env) })}\n`,
  );
}
