import type { Database } from '../db/client.ts';
import type { ContentChange } from '../services/content-change.ts';
import { createCoalescedRunner, type CoalescedRunner } from './coalesced-runner.ts';
import { updateSite, type SiteBuildOptions, type SiteUpdateLog } from './build/build-site.ts';
import { exportCatalogue, type CatalogueExport } from './export/export-catalogue.ts';
import { exportPublishedDigests } from './export/export-digests.ts';
import { exportPublishedProfiles } from './export/export-profiles.ts';

interface Log {
  info(message: string): void;
  error(object: object, message: string): void;
}

/** What one publish did: whether the exported content changed, and whether the site was rebuilt or rendered. */
export interface SitePublishOutcome {
  /** The catalogue's cards, the approved profiles or the digests changed on disk (not a rewrite of the same content). */
  exportChanged: boolean;
  built: boolean;
}

/**
 * Exports what the site is built from out of the database (approved profiles, published digests and,
 * with `catalogue`, the public catalogue), then rebuilds the site when that (or anything else it reads) changed. With
 * `profiles: false` the profiles file is left as last published (member changes held back by the cap).
 */
export async function publishSite(
  db: Database,
  options: SiteBuildOptions,
  {
    log,
    capture = false,
    catalogue,
    profiles = true,
  }: { log: SiteUpdateLog; capture?: boolean; catalogue: CatalogueExport; profiles?: boolean },
): Promise<SitePublishOutcome> {
  const profilesChanged =
    options.profilesFile && profiles
      ? (await exportPublishedProfiles(db, options.profilesFile, catalogue.postDisplay)).changed
      : false;
  const digestsChanged = options.digestsFile
    ? (
        await exportPublishedDigests(db, options.digestsFile, {
          pictureBase: catalogue.pictureBaseUrl,
          display: catalogue.postDisplay,
        })
      ).changed
    : false;
  const catalogueChanged = await exportCatalogue(db, catalogue);
  const exportChanged = profilesChanged || digestsChanged || catalogueChanged;
  // Built, rendered (decision 043) or left as it is, holding SITE_DIR's lock (decision 064).
  const reason = await updateSite(options, { log, capture });
  return { exportChanged, built: reason !== null };
}

/** A change that asks for a publish: 'threads' (approvals, removals) or 'profiles' (member actions). */
export type PublishChange = Exclude<ContentChange, 'decisions'>;

/** How long a burst of approvals is gathered before a publish: short, so an approval shows fast. */
export const PUBLISH_DELAY_MS = 250;

/** Publishes in the background; see createSitePublisher. */
export interface SitePublisher extends Omit<CoalescedRunner, 'request'> {
  /**
   * Asks for a publish: soon for 'threads', at most once per member interval for 'profiles'; with no
   * change named (the periodic publish), soon, without the member changes the cap holds back.
   */
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
 * exports everything). A periodic publish (no change named) does not: it exports the catalogue and
 * leaves the profiles as last published while member changes wait, else a 5-minute tick would
 * undo a longer cap. `memberIntervalMs` 0: no cap.
 *
 * `publish(profiles)` exports the profiles too when `profiles` is true.
 */
export function createSitePublisher({
  publish,
  reload,
  log,
  delayMs = PUBLISH_DELAY_MS,
  memberIntervalMs = 0,
}: {
  publish: (profiles: boolean) => Promise<boolean>;
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
  /** A 'threads' change not yet served: the next publish may carry member changes. */
  let threadsWaiting = false;
  /** Shutting down: the last publish carries whatever waits (the next start would anyway). */
  let closing = false;
  const membersDueIn = () => membersPublishedAt + memberIntervalMs - Date.now();
  const runner = createCoalescedRunner(
    async () => {
      // Decided when the publish starts: its export reads every change committed before this point.
      if (membersWaiting && (threadsWaiting || closing || membersDueIn() <= 0)) {
        membersWaiting = false;
        membersPublishedAt = Date.now();
      }
      threadsWaiting = false;
      // Held back still (a periodic publish within the interval): the publish at the interval's end.
      if (membersWaiting) runner.request(membersDueIn());
      if (await publish(!membersWaiting)) {
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
    request(change) {
      if (change === 'profiles') {
        membersWaiting = true;
        return runner.request(Math.max(delayMs, membersDueIn()));
      }
      if (change === 'threads') threadsWaiting = true;
      runner.request(delayMs);
    },
    settled: () => runner.settled(),
    close: () => {
      closing = true;
      return runner.close();
    },
  };
}
