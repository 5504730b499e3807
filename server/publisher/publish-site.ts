import type { Database } from '../db/client.ts';
import type { ContentChange } from '../services/content-change.ts';
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

/** A change that asks for a publish: 'threads' (approvals, removals) or 'profiles' (member actions). */
export type PublishChange = Exclude<ContentChange, 'decisions'>;

/** How long a burst of approvals is gathered before a publish: short, so an approval shows fast. */
export const PUBLISH_DELAY_MS = 250;

/** Publishes in the background; see createSitePublisher. */
export interface SitePublisher extends Omit<CoalescedRunner, 'request'> {
  /** Asks for a publish: soon for 'threads', at most once per member interval for 'profiles'. */
  request(change?: PublishChange): void;
}

/**
 * Runs `publish` in the background, one at a time, coalescing bursts of requests (ten approvals
 * in a row build the site once or twice, not ten times). After a build, `reload` swaps it in. A
 * failure is logged and the previous site keeps being served.
 *
 * Member changes ('profiles': gems, profile edits, approved invites) publish at most once per
 * `memberIntervalMs`: the first one after a quiet interval within `delayMs`, later ones gathered
 * until the interval since the last publish that carried member changes has passed. Never dropped:
 * the last one is always published, and a 'threads' publish meanwhile carries them (one publish
 * exports everything). `memberIntervalMs` 0: no cap.
 */
export function createSitePublisher({
  publish,
  reload,
  log,
  delayMs = PUBLISH_DELAY_MS,
  memberIntervalMs = 0,
}: {
  publish: () => Promise<boolean>;
  /** Swaps in a new build; `catalogueOnly` when only the catalogue files may have changed. */
  reload: (catalogueOnly: boolean) => Promise<void>;
  log: Log;
  delayMs?: number | undefined;
  memberIntervalMs?: number | undefined;
}): SitePublisher {
  /** Member changes not yet carried by a publish. */
  let membersWaiting = false;
  /** When the last publish that carried member changes started. */
  let membersPublishedAt = Number.NEGATIVE_INFINITY;
  const runner = createCoalescedRunner(
    async () => {
      // Taken when the publish starts: its export reads every change committed before this point.
      if (membersWaiting) membersPublishedAt = Date.now();
      membersWaiting = false;
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
  return {
    request(change = 'threads') {
      if (change === 'threads') return runner.request(delayMs);
      membersWaiting = true;
      runner.request(Math.max(delayMs, membersPublishedAt + memberIntervalMs - Date.now()));
    },
    settled: () => runner.settled(),
    close: () => runner.close(),
  };
}
