/**
 * `npm run test:postgres`: the database suite on a real PostgreSQL (DATABASE_URL), plus the tests
 * that need one shared by several server processes. CI runs it after `npm test`.
 */
import { spawnSync } from 'node:child_process';

if (!process.env.DATABASE_URL) {
  console.error(
    'Set DATABASE_URL to an empty PostgreSQL database first, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/curated_threads_test',
  );
  process.exit(2);
}
const result = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--project', 'integration', '--project', 'postgres'],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
