import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
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
