/**
 * `npm run build`: builds the static site with the same settings and stamp `npm start` checks, from a
 * catalogue it makes sure exists first: CATALOGUE_URL (a running server's /data), CATALOGUE_DIR, the
 * configured folder's export, or the committed sample. Works on a fresh clone with no settings.
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { CatalogueSourceError } from '../server/publisher/build/host/catalogue-source.ts';
import { buildSiteOnce } from '../server/publisher/index.ts';

const log = (line: string) => console.log(line);
try {
  const config = loadConfig(process.env);
  const siteDir = await buildSiteOnce(config, {
    log,
    catalogueUrl: process.env.CATALOGUE_URL?.trim() || undefined,
    catalogueDirGiven: Boolean(process.env.CATALOGUE_DIR?.trim()),
  });
  log(`Built ${siteDir} (with /data, _headers and .br/.gz copies) and ${siteDir}.nginx.conf.`);
} catch (error) {
  const known = error instanceof ConfigError || error instanceof CatalogueSourceError;
  console.error(known ? (error as Error).message : `The build failed: ${(error as Error).message}`);
  process.exit(1);
}
