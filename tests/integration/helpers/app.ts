import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { testDatabase } from './database.ts';

/**
 * The real app on the worker's database and the site under test. Closing the app leaves the shared
 * database open for the next file; pass `database` to give the app one of its own.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  database?: DatabaseHandle,
): Promise<FastifyInstance> {
  const db = database ?? { ...(await testDatabase()), close: async () => {} };
  const config = loadConfig({
    SITE_DIR: TEST_SITE.siteDir,
    CATALOGUE_DIR: TEST_SITE.catalogueDir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  return buildApp({ config, database: db, logger: false });
}
