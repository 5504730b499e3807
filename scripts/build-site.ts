/** `npm run build`: builds the static site with the same settings and stamp `npm start` checks. */
import { ConfigError, loadConfig } from '../server/config.ts';
import { buildSite, siteBuildOptionsFor } from '../server/jobs/build-site.ts';

try {
  await buildSite(siteBuildOptionsFor(loadConfig(process.env)));
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : (error as Error).message);
  process.exit(1);
}
