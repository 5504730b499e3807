import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublisherLeaseRepository } from '../repositories/publisher-lease.ts';
import { createSiteVersionsRepository } from '../repositories/site-versions.ts';
import { catalogueExportFor, siteBuildOptionsFor, withSiteLock } from './build/build-site.ts';
import { siteDeployFor } from './deploy/deploy-targets.ts';
import { createObjectStore } from './distribute/object-store.ts';
import { holdPublisherLease } from './distribute/publisher-lease.ts';
import { createVersionRecorder } from './distribute/record-version.ts';
import { newestFile } from './distribute/version-files.ts';
import { createVersionFollower } from './distribute/version-follower.ts';
import { readManifest } from './export/export-catalogue.ts';
import { WriteJournal } from './export/write-journal.ts';
import type { Publisher, PublisherOptions } from './publisher.ts';
import { createSitePublisher, publishSite, type PublishChange } from './publish-site.ts';
import { BorrowedCatalogue } from './serve/borrowed-catalogue.ts';
import { catalogueOptions, ServedSite } from './serve/served-site.ts';

/** The kinds of change another instance may ask the publisher to publish (the member cap applies to 'profiles'). */
const PUBLISH_KINDS: readonly PublishChange[] = ['threads', 'profiles'];

/** A killed publisher is replaced this long after its last renewal. */
export const PUBLISHER_LEASE_MS = 15_000;
/** How often every instance looks for a newer published version. */
export const VERSION_POLL_MS = 500;
/**
 * How far ahead of its switch a version is published: every instance polls and fetches it within
 * this time, then all switch at the same moment of the database's clock.
 */
export const SWITCH_LEAD_MS = 1_500;

/**
 * The publisher of an instance among several on one PostgreSQL (decision 036): the instance holding
 * the publisher lease exports, builds and records each result as a version in the database; every
 * instance (the publisher too) serves the newest version once it holds all of its files. Instances
 * share no disk: each assembles versions in its own DATA_DIR/published.
 */
export async function startSharedPublisher(options: PublisherOptions): Promise<Publisher> {
  const { config, database, log } = options;
  const timing = {
    leaseMs: PUBLISHER_LEASE_MS,
    pollMs: VERSION_POLL_MS,
    leadMs: SWITCH_LEAD_MS,
    ...options.shared,
  };
  const instanceId = randomUUID();
  const repository = createSiteVersionsRepository(database.db);
  const leases = createPublisherLeaseRepository(database.db);
  const publishedDir = path.join(config.dataDir, 'published');
  const objects = createObjectStore(path.join(publishedDir, 'objects'));
  const buildOptions = siteBuildOptionsFor(config);
  // What the export writes: the publisher records the catalogue's changes without listing it.
  const journal = new WriteJournal(buildOptions.catalogueDir);
  const recorder = createVersionRecorder({
    repository,
    objects,
    instanceId,
    leadMs: timing.leadMs,
    journal,
    requireLease: true,
  });
  const catalogue = catalogueExportFor(config);
  const deploy = siteDeployFor(config, database, log, options.deploy);

  // An instance that switches late is still asked for the new version's files (decision 045).
  const borrowed = new BorrowedCatalogue(
    path.join(publishedDir, 'borrowed'),
    catalogueOptions(config.secure),
    (key) => newestFile(repository, key),
  );
  await borrowed.start();
  // Set once the served site exists; the lease may be gained before that.
  let served: ServedSite | null = null;
  const follower = createVersionFollower({
    repository,
    objects,
    publishedDir,
    intervalMs: timing.pollMs,
    apply: async (folders, version, dueInMs) => {
      if (served) {
        const prepared = await served.prepare(folders);
        await sleep(dueInMs);
        served.activate(prepared);
      } else {
        served = await ServedSite.load({
          ...folders,
          secure: config.secure,
          apiOrigin: config.apiBaseUrl,
        });
        served.borrowMissing(borrowed);
      }
      log.info(
        { siteVersion: version.id, catalogueVersion: version.catalogueVersion },
        'serving a published version',
      );
    },
    onError: (error) =>
      log.error({ err: error }, 'the published version could not be fetched; the current one stays'),
  });

  let lease: { isHolder(): boolean } = { isHolder: () => false };
  // The start's own publishes run beside the runner's: one at a time, or two exports would write one
  // folder at once and a record would take the other's journal half-way.
  let publishing: Promise<unknown> = Promise.resolve();
  /** Exports, builds when needed and records the result; only while this instance holds the lease. */
  const publish = (capture: boolean, profiles = true): Promise<boolean> => {
    const run = publishing.then(() => publishOnce(capture, profiles));
    publishing = run.catch(() => undefined);
    return run;
  };
  const publishOnce = async (capture: boolean, profiles: boolean): Promise<boolean> => {
    if (!lease.isHolder()) return false;
    const outcome = await publishSite(database.db, buildOptions, { log, capture, catalogue, profiles });
    deploy?.afterPublish(outcome.exportChanged);
    // Listed whole: another server sharing SITE_DIR on this machine swaps it only holding its lock.
    const id = await withSiteLock(buildOptions.siteDir, async () =>
      recorder.record({
        siteDir: buildOptions.siteDir,
        catalogueDir: buildOptions.catalogueDir,
        catalogueVersion: (await readManifest(buildOptions.catalogueDir))?.version ?? null,
      }),
    );
    await repository.prune(10);
    log.info({ siteVersion: id }, 'published');
    return true;
  };
  const runner = createSitePublisher({
    publish: (profiles) => publish(true, profiles),
    // This instance serves what was recorded, like every other: it switches as they do.
    reload: async () => void (await follower.syncNow()),
    log,
    delayMs: options.delayMs,
    memberIntervalMs: config.memberPublishIntervalMinutes * 60_000,
  });
  // Any instance may take the change that needs a publish; the publisher may run elsewhere. The ask
  // goes through the database (a counter the publisher reads at every poll), so it needs no
  // connection of its own and works behind a transaction pooler.
  let wanted = await leases.publishesWanted();
  const watch = setInterval(() => {
    if (!lease.isHolder()) return;
    leases.publishesWanted().then(
      (now) => {
        for (const kind of PUBLISH_KINDS)
          if ((now.get(kind) ?? '0') !== (wanted.get(kind) ?? '0')) runner.request(kind);
        wanted = now;
      },
      (error: unknown) => log.error({ err: error }, 'the publish requests could not be read'),
    );
  }, timing.pollMs);
  watch.unref();
  const request: Publisher['request'] = (change, origin = { local: true }) => {
    if (lease.isHolder()) return runner.request(change);
    // Another instance's change is asked for by that instance; the periodic publish is the holder's.
    if (!origin.local || !change) return;
    leases
      .wantPublish(change)
      .catch((error: unknown) => log.error({ err: error }, 'a publish could not be asked for'));
  };
  const held = await holdPublisherLease({
    repository: leases,
    instanceId,
    ttlMs: timing.leaseMs,
    onGained: () => {
      log.info({ instanceId }, 'this instance publishes the site now');
      // Taking over: whatever changed since the last publisher stopped is published now.
      if (served) runner.request();
    },
    onLost: () => log.warn({ instanceId }, 'this instance no longer publishes the site'),
    onError: (error) => log.error({ err: error }, 'the publisher lease could not be renewed'),
  });
  lease = held;
  // Only the publishing instance builds into its SITE_DIR; its publish removes what killed builds
  // left there, holding the folder's lock (decision 064).
  if (held.isHolder()) await publish(false);

  // The first version: this instance's own, or the publisher's (which may still be building it).
  while ((await follower.syncNow()) === null) {
    log.info('waiting for the publishing instance to publish the first version of the site...');
    await sleep(timing.pollMs);
    if (!held.isHolder() || (await repository.latestId()) !== null) continue;
    await publish(false);
  }
  const site = served as ServedSite | null;
  if (!site) throw new Error('The first published version could not be served.');
  return {
    served: site,
    deploy,
    request,
    settled: () => runner.settled(),
    reloadCatalogue: async () => void (await follower.syncNow()),
    async close() {
      clearInterval(watch);
      follower.close();
      await runner.close();
      await deploy?.close();
      await held.close();
      journal.close();
    },
  };
}
