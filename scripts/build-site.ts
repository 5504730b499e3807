/** `npm run build`: builds the static site with the same settings and stamp `npm start` checks. */
import { ConfigError, loadConfig } from '../server/config.ts';
import { buildSite } from '../server/site/site-build.ts';

try {
  const config = loadConfig(process.env);
  await buildSite({
    siteDir: config.siteDir,
    catalogueDir: config.catalogueDir,
    publicUrl: config.publicUrl.origin,
    contactEmail: config.contactEmail,
  });
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : (error as Error).message);
  process.exit(1);
}
