/**
 * `npm run build`: builds the static site with the same settings and stamp `npm start` checks, from a
 * catalogue it makes sure exists first: CATALOGUE_URL (a running server's /data), CATALOGUE_DIR, the
 * configured folder's export, or the committed sample. Works on a fresh clone with no settings.
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { buildSite, catalogueExportFor, siteBuildOptionsFor } from '../server/services/site/build-site.ts';
import { CatalogueSourceError, prepareCatalogue } from '../server/services/site/host/catalogue-source.ts';

const log = (line: string) => console.log(line);
try {
  const config = loadConfig(process.env);
  await prepareCatalogue(
    {
      ...catalogueExportFor(config),
      catalogueUrl: process.env.CATALOGUE_URL?.trim() || undefined,
      catalogueDirGiven: Boolean(process.env.CATALOGUE_DIR?.trim()),
    },
    { log },
  );
  const options = siteBuildOptionsFor(config);
  log(`Building the site into ${options.siteDir} ...`);
  await buildSite(options, { log });
  log(
    `Built ${options.siteDir} (with /data, _headers and .br/.gz copies) and ${options.siteDir}.nginx.conf.`,
  );
} catch (error) {
  const known = error instanceof ConfigError || error instanceof CatalogueSourceError;
  console.error(known ? (error as Error).message : `The build failed: ${(error as Error).message}`);
  process.exit(1);
}
