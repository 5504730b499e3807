import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.ts';
import {
  CURATION_SITE,
  DISPLAY_SITE,
  E2E_PORT,
  E2E_READY_PORT,
  INSTANCES_READY_PORT,
  INSTANCES_SITE,
  LARGE_SITE,
  MAIL_SITE,
  MAIL_SMTP_PORT,
  MEDIA_SITE,
  MEDIA_TTL_SECONDS,
  NGINX_SITE,
  SPLIT_SITE,
  TAIL_SITE,
  TEST_SITE,
  type LaunchedServer,
} from './tests/site-under-test.ts';

/**
 * The real server (server/main.ts) on a fresh embedded database, serving a site built for it; with
 * `serveSite: false` only the API (the split deployment's API origin, site.apiBaseUrl).
 */
function server(
  name: string,
  site: typeof TEST_SITE,
  port: number,
  dataDir: string,
  prepare = 'true',
  serveSite = true,
  extraEnv: Record<string, string> = {},
): LaunchedServer {
  const origin = serveSite ? site.publicUrl : (site.apiBaseUrl ?? site.publicUrl);
  return {
    name,
    // It rebuilds a stale site before it listens; a first start (no site yet) listens at once and
    // answers pages 503 until its background build is served (decision 038): wait for the home then.
    // Its data folder starts with a migrated database copied from a template (tests/e2e-data-dir.ts).
    command: `${prepare} && node tests/e2e-data-dir.ts ${dataDir} && node server/main.ts`,
    url: serveSite ? `${origin}/` : `${origin}/api/health`,
    env: {
      PORT: String(port),
      PUBLIC_URL: site.publicUrl,
      API_BASE_URL: site.apiBaseUrl ?? '',
      SERVE_SITE: String(serveSite),
      SITE_DIR: site.siteDir,
      SAMPLE_CATALOGUE_DIR: site.catalogueDir,
      CONTACT_EMAIL: site.contactEmail ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MULTIPLIER: '1000',
      // The walks approve a member and then edit the profile or save a gem, and wait for the rebuilt
      // page: no cap on member publishes (publish-site-member-cap.test.ts tests the cap).
      MEMBER_PUBLISH_INTERVAL_MINUTES: '0',
      ...extraEnv,
    },
  };
}

const projects = [
  // One spec at a time: they share one server and its review queue, and side by side one spec decided
  // or moved the rows another was about to approve (CI, twice). The other projects fill the other workers.
  // First: its specs take about a fifth of the test time on one worker, and listed after the
  // others they ran alone at the end (the other workers idle for two minutes).
  {
    name: 'curation',
    testMatch: 'curation/**/*.spec.ts',
    workers: 1,
    use: { baseURL: CURATION_SITE.publicUrl },
  },
  {
    name: 'site',
    testIgnore: [
      'curation/**',
      'catalogue/**',
      'split/**',
      'nginx/**',
      'media/**',
      'instances/**',
      'mail/**',
      'display/**',
    ],
    use: { baseURL: TEST_SITE.publicUrl },
  },
  { name: 'catalogue', testMatch: 'catalogue/**/*.spec.ts', use: { baseURL: LARGE_SITE.publicUrl } },
  { name: 'split', testMatch: 'split/**/*.spec.ts', use: { baseURL: SPLIT_SITE.publicUrl } },
  { name: 'nginx', testMatch: 'nginx/**/*.spec.ts', use: { baseURL: NGINX_SITE.publicUrl } },
  { name: 'media', testMatch: 'media/**/*.spec.ts', use: { baseURL: MEDIA_SITE.publicUrl } },
  // Three instances on one PostgreSQL behind nginx: only by name, with DATABASE_URL (npm run test:postgres).
  { name: 'instances', testMatch: 'instances/**/*.spec.ts', use: { baseURL: INSTANCES_SITE.publicUrl } },
  { name: 'mail', testMatch: 'mail/**/*.spec.ts', use: { baseURL: MAIL_SITE.publicUrl } },
  { name: 'display', testMatch: 'display/**/*.spec.ts', use: { baseURL: DISPLAY_SITE.publicUrl } },
];
// Each project's servers.
const webServers: Record<string, LaunchedServer[]> = {
  site: [
    server('site', TEST_SITE, E2E_PORT, 'test-output/e2e-data'),
    // A site whose first pages carry a tail (decision 037), served as the server serves a site.
    {
      name: 'tail',
      command: 'node tests/tail-site/serve.ts',
      url: `${TAIL_SITE.publicUrl}/data/manifest.json`,
    },
  ],
  curation: [
    // The digest tab's test needs this week's digest, holding the thread it approves among the
    // others': last week's is published as soon as the job first runs (even on a Monday), and the
    // digest holds up to 50 threads, more than all the project's tests approve.
    server('curation', CURATION_SITE, E2E_PORT + 1, 'test-output/curation-data', 'true', true, {
      DIGEST_HOLD_HOURS: '0',
      DIGEST_SIZE: '50',
    }),
  ],
  catalogue: [
    server(
      'catalogue',
      LARGE_SITE,
      E2E_PORT + 2,
      'test-output/large-data',
      `node tests/large-catalogue.ts ${LARGE_SITE.catalogueDir}`,
    ),
  ],
  // The split deployment: the pages' server, and the API's on another port of the same host.
  split: [
    server('split pages', SPLIT_SITE, E2E_PORT + 6, 'test-output/split-pages-data'),
    server('split API', SPLIT_SITE, E2E_PORT + 7, 'test-output/split-api-data', 'true', false),
  ],
  nginx: [
    // Our server (the API) behind Debian's nginx serving the built site from disk (tests/nginx/serve.ts).
    { name: 'nginx', command: 'node tests/nginx/serve.ts', url: `${NGINX_SITE.publicUrl}/api/health` },
  ],
  // Pictures whose signed addresses expire within seconds (decision 025).
  media: [
    server('media', MEDIA_SITE, E2E_PORT + 8, 'test-output/media-data', 'true', true, {
      SIMULATED_MEDIA_TTL_SECONDS: String(MEDIA_TTL_SECONDS),
    }),
  ],
  instances: [
    // The first instance to take the publisher lease may build the site first.
    {
      name: 'instances',
      command: 'node tests/instances/serve.ts',
      url: `${INSTANCES_SITE.publicUrl}/api/health`,
    },
  ],
  // The digest by mail (issue 22): SMTP_URL set, so the site it builds has the subscribe form and
  // its send-mail job runs; the SMTP server is the test's own (tests/e2e/mail/).
  mail: [
    server('mail', MAIL_SITE, E2E_PORT + 14, 'test-output/mail-data', 'true', true, {
      SMTP_URL: `smtp://127.0.0.1:${MAIL_SMTP_PORT}`,
      MAIL_FROM: '"Curated Threads" <digest@curated-threads.test>',
    }),
  ],
  // Others' posts through Threads' embed (decision 070): its pages load the simulator's stand-in.
  display: [
    server('display', DISPLAY_SITE, E2E_PORT + 21, 'test-output/display-data', 'true', true, {
      PUBLIC_POST_DISPLAY: 'embed',
    }),
  ],
};
// E2E_PROJECTS=site,curation runs only those projects and starts only their servers (a quicker
// loop while working on one area; npm test runs them all).
const only = process.env.E2E_PROJECTS?.split(',').map((name) => name.trim());
const wanted = (name: string) => {
  // The instances empty the PostgreSQL of DATABASE_URL: only when asked for by name (test:postgres).
  if (name === 'instances') return Boolean(only?.includes(name) && process.env.DATABASE_URL);
  return !only || only.includes(name);
};

// npm test runs the 'instances' project (the PostgreSQL pass) in a Playwright of its own beside this
// one: its launcher answers on another port.
const readyPort = wanted('instances') ? INSTANCES_READY_PORT : E2E_READY_PORT;

/**
 * End-to-end tests: Debian's Chromium against our own server. The 'curation' specs approve threads,
 * which changes the home page, so they get a server and a site of their own; the other specs can
 * then rely on the committed sample catalogue. The 'catalogue' specs walk paging, search and topics
 * on a 1,000-thread catalogue of their own. The 'nginx' specs walk the site as a deployment serves
 * it: nginx with the generated server block in front of our server.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  // Its own folder when another run goes on beside this one (the PostgreSQL pass's, during npm test):
  // Playwright empties its output folder as it starts.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-output/playwright',
  forbidOnly: true,
  retries: 0,
  // Three: the tests mostly wait (on servers rebuilding, on pages), so a 2-core machine has room for a
  // third. The curation specs run one at a time on one of them (their project's own limit).
  workers: 3,
  // Bounds for a 2-core machine whose CPU the workers' Chromiums keep full (decision 076): Playwright's
  // 30 s a test and 5 s a wait ran out on pages that were only slow (CI, four tests at once).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: projects.filter((project) => wanted(project.name)),
  // One entry that starts them all at once (tests/e2e-servers.ts): Playwright starts a list's entries
  // one after another, and the ten took two minutes so (decision 071).
  webServer: {
    command: 'node tests/e2e-servers.ts',
    url: `http://127.0.0.1:${readyPort}/`,
    env: {
      E2E_SERVERS: JSON.stringify(
        projects
          .filter((project) => wanted(project.name))
          .flatMap((project) => webServers[project.name] ?? []),
      ),
      E2E_READY_PORT: String(readyPort),
    },
    reuseExistingServer: false,
    // Sites of their own are built at start: slow when the machine is busy.
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
