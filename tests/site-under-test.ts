import path from 'node:path';
import { buildSite, staleReason, type SiteBuildOptions } from '../server/publisher/build/build-site.ts';

/** Where `npm test` builds the site and serves it from, kept apart from `dist` so `npm start` never rebuilds for it. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4391);
/** Where tests/e2e-servers.ts answers once every browser-test server is ready. */
export const E2E_READY_PORT = E2E_PORT + 22;
/** The same for the run of the 'instances' project, which the PostgreSQL pass starts beside the other one. */
export const INSTANCES_READY_PORT = E2E_PORT + 23;

/** One server for the browser tests (tests/e2e-servers.ts): its shell command, settings, and the URL that answers once it is ready. */
export interface LaunchedServer {
  name: string;
  command: string;
  url: string;
  env?: Record<string, string>;
}
export const TEST_SITE: SiteBuildOptions = {
  // TEST_SITE_DIR: npm test's PostgreSQL pass builds and writes its own, beside the browser tests,
  // whose 'site' server serves this one.
  siteDir: path.resolve(process.env.TEST_SITE_DIR ?? path.join(import.meta.dirname, '../test-output/site')),
  catalogueDir: path.resolve(import.meta.dirname, '../data'),
  publicUrl: `http://127.0.0.1:${E2E_PORT}`,
  contactEmail: 'privacy@curated-threads.test',
};

/** The curation browser tests' own server builds and rebuilds this one (their approvals change it). */
export const CURATION_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/curation-site'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 1}`,
};

/**
 * The picture browser tests' server (decision 025): its simulated media addresses expire within
 * seconds (MEDIA_TTL_SECONDS), so a card's first picture address is dead long before the test ends.
 */
export const MEDIA_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/media-site'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 8}`,
};
export const MEDIA_TTL_SECONDS = 20;

/**
 * The embed display's browser test (issue 35, decision 070): a server with PUBLIC_POST_DISPLAY=embed
 * on E2E_PORT + 21, whose pages load the simulator's stand-in for Meta's embed script.
 */
export const DISPLAY_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/display-site'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 21}`,
};

/** The catalogue browser tests' server: a 1,000-thread catalogue (tests/large-catalogue.ts). */
export const LARGE_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/large-site'),
  catalogueDir: path.resolve(import.meta.dirname, '../test-output/large-catalogue'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 2}`,
};

/**
 * The split deployment (decision 018): this site's server serves the pages, built to call the API on
 * another origin of the same site, where a second server answers with PUBLIC_URL = this site's origin.
 * Ports do not change a site, so cookies and SameSite behave as between www. and api.example.com.
 */
export const SPLIT_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/split-site'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 6}`,
  apiBaseUrl: `http://127.0.0.1:${E2E_PORT + 7}`,
};

/**
 * A site built from a catalogue whose first pages carry a tail (decision 037), served by the real
 * static serving (tests/tail-site/serve.ts) on E2E_PORT + 13; its browser test runs in the 'site' project.
 */
export const TAIL_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/tail-site'),
  catalogueDir: path.resolve(import.meta.dirname, '../test-output/tail-catalogue'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 13}`,
};

/**
 * The digest mail's browser test (issue 22): a server with SMTP_URL on E2E_PORT + 14, so its own
 * site offers the subscribe form and its send-mail job mails, to the SMTP server the test itself
 * starts on MAIL_SMTP_PORT (E2E_PORT + 15). The other sites keep rendering without the form.
 */
export const MAIL_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/mail-site'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 14}`,
};
export const MAIL_SMTP_PORT = E2E_PORT + 15;

/** Builds the site under test when it is missing or older than its sources (Vitest and Playwright global setup). */
export async function ensureTestSite(): Promise<void> {
  const reason = await staleReason(TEST_SITE);
  if (!reason) return;
  console.log(`Building the site under test (${reason})...`);
  await buildSite(TEST_SITE);
}

/**
 * The nginx-fronted browser tests: our server (the API, and the site build) on E2E_PORT + 3 behind
 * Debian's nginx on E2E_PORT + 4, which serves this site (built for nginx's origin) from disk.
 */
export const NGINX_API_PORT = E2E_PORT + 3;
export const NGINX_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/nginx-site'),
  catalogueDir: path.resolve(import.meta.dirname, '../test-output/nginx-data/catalogue'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 4}`,
};

/**
 * Several instances on one PostgreSQL behind Debian's nginx (round robin), sharing nothing else
 * (decision 036): nginx on E2E_PORT + 9, the instances on E2E_PORT + 10, 11 and 12, each with its own
 * data and site folders. Run only with DATABASE_URL (`npm run test:postgres`).
 */
export const INSTANCES_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.resolve(import.meta.dirname, '../test-output/instances/1/site'),
  publicUrl: `http://127.0.0.1:${E2E_PORT + 9}`,
};
export const INSTANCE_PORTS = [E2E_PORT + 10, E2E_PORT + 11, E2E_PORT + 12];
