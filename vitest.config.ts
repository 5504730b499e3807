import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './tests/slow-files-first.ts';

// Tests that only make sense on a shared PostgreSQL (several server processes on one database):
// run by `npm run test:postgres` with DATABASE_URL set, as CI does after `npm test`.
const postgresProject = {
  test: {
    name: 'postgres',
    globalSetup: ['tests/global-setup.ts'],
    include: ['tests/postgres/**/*.test.ts'],
    environment: 'node',
    isolate: false,
    fileParallelism: false,
    // Several instances and their child processes beside the browser tests: bounds for a loaded
    // 2-core machine (a killed lease's takeover waits for a holder process to start and claim).
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
};

export default defineConfig({
  test: {
    // Decision 061: the PostgreSQL pass runs, of the integration project, only the tests tagged
    // `engine`; every other integration test runs on PGlite alone.
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. The integration
    // files mostly wait (on child processes, sockets, timers), so two keep both cores busy.
    maxWorkers: 2,
    // Known slow files first, whatever Vitest's cache holds (none on a clean clone).
    sequence: { sequencer: SlowFilesFirst },
    tags: [
      {
        name: 'engine',
        description:
          'Its outcome depends on the database engine: concurrent writes and locks, LISTEN/NOTIFY or several instances, migrations, SQL whose answer PostgreSQL could give differently, or a DATABASE_URL branch.',
      },
    ],
    projects: [
      ...(process.env.DATABASE_URL ? [postgresProject] : []),
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          globalSetup: ['tests/global-setup.ts'],
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          // One migrated database per worker, shared by the files that run in it (see tests/integration/helpers).
          isolate: false,
          // On a real PostgreSQL all workers share one database: run files one after another.
          fileParallelism: !process.env.DATABASE_URL,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
