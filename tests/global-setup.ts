import { ensureTestSite } from './site-under-test.ts';

/** Vitest and Playwright global setup: the tests run against a real build of the site. */
export default async function globalSetup(): Promise<void> {
  await ensureTestSite();
}
