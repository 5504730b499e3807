/**
 * `npm test`: everything: make sure Chromium and nginx are there, build the site under test, then
 * unit and integration tests (Vitest), the browser tests (Playwright), the PostgreSQL pass when
 * POSTGRES_TEST_URL names a database it may empty (CI does), and the benchmarks' smoke run
 * (every bench step once, small, so that a broken benchmark fails here). Never skips a part.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { NGINX_PATH } from '../tests/nginx/nginx-runner.ts';
import { ensureTestSite } from '../tests/site-under-test.ts';
import { CHROMIUM_PATH } from './chromium.ts';
import { recordPhase, reportFile } from './ci/timings.ts';

/** Runs one phase, its time recorded for CI's closing table; stops everything when it fails. */
function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n▶ ${title}`);
  const startedAt = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  recordPhase(title, startedAt, result.status === 0);
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed.`);
    process.exit(result.status ?? 1);
  }
}

/** A Debian package the tests run, where its binary lives, and the setting that moves it. */
interface SystemTool {
  name: string;
  path: string;
  debianPackage: string;
  setting: string;
  /** Why the tests need it, when it is not obvious. */
  why?: string;
}

const TOOLS: SystemTool[] = [
  { name: 'Chromium', path: CHROMIUM_PATH, debianPackage: 'chromium', setting: 'CHROMIUM_PATH' },
  {
    name: 'nginx',
    path: NGINX_PATH,
    debianPackage: 'nginx-light',
    setting: 'NGINX_PATH',
    why: 'the nginx-fronted browser tests run it',
  },
];

/**
 * Installs the missing tools from Debian (one apt-get update for all) when running as root;
 * otherwise stops with the one command to run. Browser tests are never skipped.
 */
function ensureTools(tools: SystemTool[]): void {
  const missing = tools.filter((tool) => !existsSync(tool.path));
  if (missing.length === 0) return;
  const packages = missing.map((tool) => tool.debianPackage);
  if (process.getuid?.() !== 0) {
    for (const tool of missing) {
      const why = tool.why ? ` (${tool.why})` : '';
      console.error(
        `${tool.name} is missing at ${tool.path}${why}; set ${tool.setting} if it is installed elsewhere.`,
      );
    }
    console.error(`Install with "sudo apt-get install -y ${packages.join(' ')}", then run npm test again.`);
    process.exit(1);
  }
  for (const tool of missing)
    console.log(
      `${tool.name} is missing at ${tool.path}: installing Debian's ${tool.debianPackage} package with apt-get (running as root)...`,
    );
  run('apt-get update', 'apt-get', ['update', '-q']);
  run(`apt-get install ${packages.join(' ')}`, 'apt-get', ['install', '-y', '-q', ...packages]);
}

ensureTools(TOOLS);

console.log('\n▶ Site under test');
const siteStartedAt = performance.now();
await ensureTestSite();
recordPhase('Site under test', siteStartedAt, true);

// Every Node child (servers, CLIs, builds, runners) keeps its compiled code here: the second start of
// the same modules skips parsing and compiling them (measured: a quarter off each admin CLI start).
process.env.NODE_COMPILE_CACHE ??= path.resolve('node_modules/.cache/node-compile');

/**
 * The PostgreSQL pass when POSTGRES_TEST_URL names a database it may empty (CI), after the browser
 * tests, not beside them (decision 076): both keep a 2-core machine's CPU full, so side by side
 * they took as long as one after the other, and their waits timed out under the load.
 */
function postgresPass(): void {
  const postgres = process.env.POSTGRES_TEST_URL;
  if (!postgres) return;
  run('PostgreSQL pass (npm run test:postgres)', process.execPath, ['scripts/test-postgres.ts'], {
    ...process.env,
    DATABASE_URL: postgres,
    // Its tests build and write a site under test of their own, apart from test-output/site.
    TEST_SITE_DIR: 'test-output/postgres-site',
  });
}

// The tools run on this same Node (24), whatever `node` the shell would find. Each runner also
// writes its JSON report, from which CI's closing table names the slowest files.
run('Unit and integration tests (Vitest)', process.execPath, [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportFile('vitest')}`,
]);
run(
  'Browser tests (Playwright, Chromium)',
  process.execPath,
  ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'],
  { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile('playwright') },
);
postgresPass();
// Alone: under the browser tests' load it took more than twice as long. One run covers every bench
// step, the catalogue's and the versions' too (decision 072).
run('Benchmark smoke (npm run bench -- --smoke)', process.execPath, ['scripts/bench/run.ts', '--smoke']);
console.log('\n✓ All tests passed.');
