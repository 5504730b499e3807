/**
 * `npm run test:postgres`: on a real PostgreSQL (DATABASE_URL), the integration tests tagged
 * `engine` (decision 061: those whose outcome depends on the database engine), the tests that need
 * one database shared by several instances (tests/postgres/), some through Debian's PgBouncer in
 * transaction mode, and the browser walk of three instances behind Debian's nginx (Playwright
 * project `instances`). `npm test` runs it beside its browser tests when POSTGRES_TEST_URL is set (CI
 * does). `--all` runs the whole integration project.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { recordPhase, reportFile } from './ci/timings.ts';

if (!process.env.DATABASE_URL) {
  console.error(
    'Set DATABASE_URL to an empty PostgreSQL database first, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/curated_threads_test',
  );
  process.exit(2);
}
// Where tests/postgres/pgbouncer.ts runs it from.
const PGBOUNCER = '/usr/sbin/pgbouncer';
if (!existsSync(PGBOUNCER)) {
  console.error(
    `The multi-instance tests run PgBouncer: install Debian's package first (apt-get install pgbouncer; ${PGBOUNCER}).`,
  );
  process.exit(2);
}

/** Runs one phase on this Node, its time recorded for CI's closing table; exits when it fails. */
function run(title: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n▶ ${title}`);
  const startedAt = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  recordPhase(title, startedAt, result.status === 0);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const all = process.argv.includes('--all');
/**
 * The integration files that name the tag `engine`: given by name, Vitest loads only these, not the
 * 70-odd others whose every test the tag filter would skip after loading them. Any mention of the
 * quoted word counts, so a tag spelled another way is never left out (a file too many only loads).
 */
const ENGINE_TAG = /['"]engine['"]/;
const engineFiles = () =>
  globSync('tests/integration/**/*.test.ts').filter((file) => ENGINE_TAG.test(readFileSync(file, 'utf8')));
const vitest = (runner: string, project: string, filter: string[]) => [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--project',
  project,
  ...filter,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportFile(runner)}`,
];
run(
  `PostgreSQL: ${all ? 'every integration test' : "the integration tests tagged 'engine'"}`,
  vitest('postgres-vitest', 'integration', all ? [] : ['--tags-filter=engine', ...engineFiles()]),
);
// Its own run: a tag filter would apply to this project too, and every test in it needs PostgreSQL.
run(
  'PostgreSQL: several instances on one database (tests/postgres)',
  vitest('postgres-instances', 'postgres', []),
);
// Three instances behind nginx in Chromium (decision 036): the Playwright project asked for by name.
run(
  'PostgreSQL: three instances behind nginx (Playwright)',
  ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'],
  {
    ...process.env,
    E2E_PROJECTS: 'instances',
    // npm test runs this pass beside its own browser tests, whose output folder Playwright would empty.
    E2E_OUTPUT_DIR: 'test-output/playwright-instances',
    PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile('postgres-playwright'),
  },
);
