/**
 * `npm run test:postgres`: the database suite on a real PostgreSQL (DATABASE_URL), plus the tests
 * that need one shared by several instances (tests/postgres/), some of them through Debian's
 * PgBouncer in transaction mode, and the browser walk of three instances behind Debian's nginx
 * (Playwright project `instances`). CI runs it after `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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
const vitest = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--project', 'integration', '--project', 'postgres'],
  { stdio: 'inherit' },
);
if (vitest.status !== 0) process.exit(vitest.status ?? 1);
// Three instances behind nginx in Chromium (decision 036): the Playwright project asked for by name.
const browser = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test'], {
  stdio: 'inherit',
  env: { ...process.env, E2E_PROJECTS: 'instances' },
});
process.exit(browser.status ?? 1);
