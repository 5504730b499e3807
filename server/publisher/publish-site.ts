import type { Database } from '../db/client.ts';
import { createCoalescedRunner, type CoalescedRunner } from './coalesced-runner.ts';
import { buildSite, siteState, type SiteBuildOptions } from './build/build-site.ts';
import { exportCatalogue, type CatalogueExport } from './export/export-catalogue.ts';
import { exportPublishedProfiles } from './export/export-profiles.ts';

interface Log {
  info(message: string): void;
  error(object: object, message: string): void;
}

/** What one publish did: whether the exported content changed, and whether the site was rebuilt. */
export interface SitePublishOutcome {
  /** The catalogue's cards or the approved profiles changed on disk (not a rewrite of the same content). */
  exportChanged: boolean;
  built: boolean;
}

/**
 * Exports what the site is built from out of the database (approved profiles and, with `catalogue`,
 * the public catalogue), then rebuilds the site when that (or anything else it reads) changed.
 */
export async function publishSite(
  db: Database,
  options: SiteBuildOptions,
  { log, capture = false, catalogue }: { log: Log; capture?: boolean; catalogue: CatalogueExport },
): Promise<SitePublishOutcome> {
  const profilesChanged = options.profilesFile
    ? (await exportPublishedProfiles(db, options.profilesFile)).changed
    : false;
  const catalogueChanged = await exportCatalogue(db, catalogue);
  const exportChanged = profilesChanged || catalogueChanged;
  const { reason, fingerprint } = await siteState(options);
  if (!reason) return { exportChanged, built: false };
  log.info(`Building the site (${reason})...`);
  await buildSite(options, { capture, fingerprint });
  return { exportChanged, built: true };
}

/** Rebuilds the site in the background; see createSitePublisher. */
export type SitePublisher = CoalescedRunner;

/**
 * Runs `publish` in the background, one at a time, coalescing bursts of requests (ten approvals
 * in a row build the site once or twice, not ten times). After a build, `reload` swaps it in. A
 * failure is logged and the previous site keeps being served.
 */
export function createSitePublisher({
  publish,
  reload,
  log,
  delayMs = 1000,
}: {
  publish: () => Promise<boolean>;
  /** Swaps in a new build; `catalogueOnly` when only the catalogue files may have changed. */
  reload: (catalogueOnly: boolean) => Promise<void>;
  log: Log;
  delayMs?: number | undefined;
}): SitePublisher {
  return createCoalescedRunner(
    async () => {
      if (await publish()) {
        await reload(false);
        log.info('The rebuilt site is being served.');
      } else {
        await reload(true);
      }
    },
    {
      delayMs,
      onError: (error) =>
        log.error({ err: error }, 'The site could not be rebuilt; the previous site stays online.'),
    },
  );
}
