import { defineConfig } from '@playwright/test';
import { E2E_PORT, TEST_SITE } from './tests/site-under-test.ts';

/** End-to-end tests: Debian's Chromium against the built site served by our own server (server/main.ts). */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-output/playwright',
  forbidOnly: true,
  retries: 0,
  workers: 2,
  reporter: [['list']],
  use: {
    baseURL: TEST_SITE.publicUrl,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    // The real server, on a fresh embedded database; it rebuilds the site under test first if it is stale.
    command: 'rm -rf test-output/e2e-data && node server/main.ts',
    url: `${TEST_SITE.publicUrl}/api/health`,
    env: {
      PORT: String(E2E_PORT),
      PUBLIC_URL: TEST_SITE.publicUrl,
      SITE_DIR: TEST_SITE.siteDir,
      SAMPLE_CATALOGUE_DIR: TEST_SITE.catalogueDir,
      CONTACT_EMAIL: TEST_SITE.contactEmail ?? '',
      DATA_DIR: 'test-output/e2e-data',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MULTIPLIER: '1000',
    },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
