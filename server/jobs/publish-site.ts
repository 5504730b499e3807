import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/client.ts';
import { buildSite, siteState, type SiteBuildOptions } from './build-site.ts';
import { exportCatalogue, type CatalogueExport } from './export-catalogue.ts';
import { exportPublishedProfiles } from './export-profiles.ts';

interface Log {
  info(message: string): void;
  error(object: object, message: string): void;
}

/**
 * Exports what the site is built from out of the database (approved profiles and, with `catalogue`,
 * the public catalogue), then rebuilds the site when that (or anything else it reads) changed.
 * Returns whether it built.
 */
export async function publishSite(
  db: Database,
  options: SiteBuildOptions,
  { log, capture = false, catalogue }: { log: Log; capture?: boolean; catalogue: CatalogueExport },
): Promise<boolean> {
  if (options.profilesFile) await exportPublishedProfiles(db, options.profilesFile);
  await exportCatalogue(db, catalogue);
  const { reason, fingerprint } = await siteState(options);
  if (!reason) return false;
  log.info(`Building the site (${reason})...`);
  await buildSite(options, { capture, fingerprint });
  return true;
}

export interface SitePublisher {
  /** Asks for a publish soon; requests made while one runs are served by one more run after it. */
  request(): void;
  /** Resolves once nothing is running or queued. */
  settled(): Promise<void>;
  /** Refuses further requests and waits for the running one (shutdown). */
  close(): Promise<void>;
}

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
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  async function loop(): Promise<void> {
    do {
      again = false;
      await sleep(delayMs);
      try {
        if (await publish()) {
          await reload(false);
          log.info('The rebuilt site is being served.');
        } else {
          await reload(true);
        }
      } catch (error) {
        log.error({ err: error }, 'The site could not be rebuilt; the previous site stays online.');
      }
    } while (again && !closed);
    running = null;
  }

  const settled = async () => {
    while (running) await running;
  };
  return {
    request() {
      if (closed) return;
      if (running) again = true;
      else running = loop();
    },
    settled,
    async close() {
      closed = true;
      await settled();
    },
  };
}
