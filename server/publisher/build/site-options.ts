// What a site build is told (the server's settings as the build needs them), and the environment it runs in.
import path from 'node:path';
import { THREADS_EMBED_SCRIPT_URL } from '../../../contract/threads-embed.ts';
import type { Config } from '../../config.ts';
import { SIMULATED_PREFIX } from '../../threads/settings.ts';
import type { CatalogueExport } from '../export/export-catalogue.ts';
import { localOrigin } from '../../http/loopback.ts';

export interface SiteBuildOptions {
  siteDir: string;
  catalogueDir: string;
  /** Baked into canonical URLs, OpenGraph tags and the sitemap. */
  publicUrl: string;
  contactEmail: string | undefined;
  /** Approved members' profiles to pre-render (export-profiles.ts); none when absent. */
  profilesFile?: string | undefined;
  /** The published weekly digests to render at /digest/ (export-digests.ts); none when absent. */
  digestsFile?: string | undefined;
  /** The origin the pages call the API on (API_BASE_URL); absent: their own origin (`/api/...`). */
  apiBaseUrl?: string | undefined;
  /** Where the Node server listens, for the nginx block written beside the site (not a build input). */
  apiUpstream?: string | undefined;
  /** Path prefixes only Node answers besides /api/ (the simulated provider's), for the nginx block. */
  nodePaths?: readonly string[] | undefined;
  /** A copy of the catalogue in the site's `data/`, for static hosts (`npm run build`); see host-files.ts. */
  catalogueInSite?: boolean | undefined;
  /** SMTP_URL is set: the pages offer the weekly digest by mail (decision 054). */
  digestMail?: boolean | undefined;
  /** Where the pages load Threads' embed script from (decision 070); its origin joins their CSP. */
  embedScriptUrl?: string | undefined;
}

/** What the server exports into the catalogue it builds from and serves. */
export function catalogueExportFor(config: Config): CatalogueExport {
  return {
    catalogueDir: config.catalogueDir,
    sampleCatalogueDir: config.sampleCatalogueDir,
    refreshIntervalMinutes: config.refreshIntervalMinutes,
    pictureBaseUrl: config.apiBaseUrl,
    postDisplay: config.publicPostDisplay,
  };
}

/** Threads' embed script: THREADS_EMBED_SCRIPT_URL, Meta's, or in simulated mode the simulator's stand-in. */
export function embedScriptUrlFor(config: Config): string {
  if (config.embedScriptUrl) return config.embedScriptUrl;
  if (config.threads.mode === 'live') return THREADS_EMBED_SCRIPT_URL;
  return `${config.apiBaseUrl ?? config.publicUrl.origin}${SIMULATED_PREFIX}/embed.js`;
}

/** The build settings a server configuration implies. */
export function siteBuildOptionsFor(config: Config): SiteBuildOptions {
  return {
    siteDir: config.siteDir,
    catalogueDir: config.catalogueDir,
    publicUrl: config.publicUrl.origin,
    contactEmail: config.contactEmail,
    profilesFile: publishedProfilesFile(config),
    digestsFile: publishedDigestsFile(config),
    apiBaseUrl: config.apiBaseUrl,
    apiUpstream: localOrigin(config.host, config.port),
    nodePaths: config.threads.mode === 'simulated' ? [`${SIMULATED_PREFIX}/`] : [],
    digestMail: config.mail.smtpUrl !== undefined,
    // Only pages that may show an embed load its script's loader and name its origin in their CSP.
    embedScriptUrl: config.publicPostDisplay === 'embed' ? embedScriptUrlFor(config) : undefined,
  };
}

/** Where the server exports the approved profiles that the build pre-renders. */
export function publishedProfilesFile(config: Config): string {
  return path.join(config.dataDir, 'site-data', 'profiles.json');
}

/** Where the server exports the published digests that the site renders (decision 057). */
export function publishedDigestsFile(config: Config): string {
  return path.join(config.dataDir, 'site-data', 'digests.json');
}

/** Environment the Astro build and the renderer read. */
export function buildEnv(options: SiteBuildOptions): Record<string, string> {
  const env: Record<string, string> = {
    PUBLIC_URL: options.publicUrl,
    CATALOGUE_DIR: options.catalogueDir,
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  if (options.contactEmail) env.CONTACT_EMAIL = options.contactEmail;
  if (options.profilesFile) env.PROFILES_FILE = options.profilesFile;
  if (options.digestsFile) env.DIGESTS_FILE = options.digestsFile;
  // Part of the fingerprint like every other setting here: another API origin rebuilds the site.
  if (options.apiBaseUrl) env.API_BASE_URL = options.apiBaseUrl;
  // Whether the subscribe form is shown; never the SMTP settings themselves.
  if (options.digestMail) env.DIGEST_MAIL = 'true';
  if (options.embedScriptUrl) env.EMBED_SCRIPT_URL = options.embedScriptUrl;
  return env;
}

/**
 * The whole environment of the build's and the renderer's processes: ours, with the build's settings
 * over it. API_BASE_URL comes from the options alone: one left in our environment would be baked into
 * a site whose fingerprint says same-origin.
 */
export function childEnv(options: SiteBuildOptions): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && name !== 'API_BASE_URL') inherited[name] = value;
  return { ...inherited, ...buildEnv(options) };
}
