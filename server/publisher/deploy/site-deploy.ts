import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema } from '../../../contract/manifest.ts';
import { MANIFEST_FILE } from '../export/catalogue-files.ts';
import { createCoalescedRunner, type CoalescedRunner } from '../coalesced-runner.ts';
import type { DeployLog } from './deploy-hook.ts';

/** What a delivery announces: the exported content, and a key that changes whenever it does. */
export interface ExportedContent {
  /** The catalogue version (a hash of its cards) and the approved profiles' hash, together. */
  key: string;
  version: string | null;
  generatedAt: string | null;
}

/** A rebuild trigger (the deploy hook or the deploy command). */
export interface DeployTarget {
  /** 'hook' or 'command': in logs, the job lock's name and the stored state's key. */
  name: string;
  /** Tells configured targets apart without revealing them (a hash): a new one gets the current content. */
  identity: string;
  /** Delivers once (retrying as it sees fit); true when it succeeded. Stops early when `signal` aborts. */
  deliver(content: ExportedContent, signal: AbortSignal): Promise<boolean>;
}

export type JobLock = <T>(
  name: string,
  job: () => Promise<T>,
) => Promise<{ ran: true; result: T } | { ran: false }>;

/** Where each target's last delivered content key is kept (the app_meta table: shared by all instances). */
export interface DeliveredStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
}

export interface SiteDeploy {
  /**
   * Called after every publish: asks each target for a delivery when the export changed, at the
   * first publish after start, or when the target's last delivery did not succeed.
   */
  afterPublish(exportChanged: boolean): void;
  /** Resolves once no delivery is running or queued. */
  settled(): Promise<void>;
  /** Refuses new deliveries, waits up to `graceMs` for the running ones, then aborts them. */
  close(graceMs?: number): Promise<void>;
}

/** A short, stable fingerprint of a secret (a hook URL, a command) that does not reveal it. */
export function identityOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12);
}

/**
 * Reads the exported catalogue's manifest and hashes the exported profiles and digests (when the
 * server exports them).
 */
export async function readExportedContent(
  catalogueDir: string,
  profilesFile: string | undefined,
  digestsFile?: string,
): Promise<ExportedContent> {
  const manifest = await readFile(path.join(catalogueDir, MANIFEST_FILE), 'utf8').then(
    (body) => ManifestSchema.safeParse(JSON.parse(body)).data ?? null,
    () => null,
  );
  const profiles = profilesFile ? await readFile(profilesFile, 'utf8').catch(() => '') : '';
  const profilesHash = identityOf(profiles.trim() || '[]');
  const digests = digestsFile ? await readFile(digestsFile, 'utf8').catch(() => '') : '';
  // No digests yet: the key of the content as before there were any.
  const digestsHash = digests.trim() && digests.trim() !== '[]' ? `+${identityOf(digests.trim())}` : '';
  const version = manifest?.version ?? null;
  return {
    key: `${version ?? 'none'}+${profilesHash}${digestsHash}`,
    version,
    generatedAt: manifest?.generatedAt ?? null,
  };
}

/**
 * Delivers the exported content to each target in the background: one delivery per burst per
 * target (a coalesced runner each, so a slow build command never delays the hook), under a job lock
 * (one instance at a time on PostgreSQL), and only when the content differs from what that target
 * last received, as recorded in the database. So a rewrite of the same content, a restart, or a
 * second instance exporting what another one already delivered makes no call.
 */
export function createSiteDeploy({
  targets,
  readContent,
  lock,
  store,
  log,
  delayMs = 0,
}: {
  targets: DeployTarget[];
  readContent: () => Promise<ExportedContent>;
  lock: JobLock;
  store: DeliveredStore;
  log: DeployLog;
  /** How long a burst of changes is gathered before a delivery starts. */
  delayMs?: number | undefined;
}): SiteDeploy {
  const shutdown = new AbortController();
  const pending = new Set<string>(targets.map((target) => target.name));
  const runners = new Map<string, CoalescedRunner>();

  async function deliver(target: DeployTarget): Promise<void> {
    const stateKey = `deployed:${target.name}:${target.identity}`;
    const outcome = await lock(`deploy-${target.name}`, async () => {
      const content = await readContent();
      if ((await store.get(stateKey)) === content.key) return true;
      const delivered = await target.deliver(content, shutdown.signal);
      if (delivered) await store.set(stateKey, content.key);
      return delivered;
    });
    if (!outcome.ran)
      log.info({ target: target.name }, 'Another instance is delivering; checked again later.');
    if (outcome.ran && outcome.result) pending.delete(target.name);
    else pending.add(target.name);
  }

  for (const target of targets) {
    const onError = (error: unknown) => {
      pending.add(target.name);
      log.error({ target: target.name, failure: (error as Error).message }, 'The deploy trigger failed.');
    };
    runners.set(
      target.name,
      createCoalescedRunner(() => deliver(target), { delayMs, onError, dropWaitingOnClose: true }),
    );
  }

  return {
    afterPublish(exportChanged) {
      for (const [name, runner] of runners) if (exportChanged || pending.has(name)) runner.request();
    },
    async settled() {
      await Promise.all([...runners.values()].map((runner) => runner.settled()));
    },
    async close(graceMs = 5_000) {
      const timer = setTimeout(() => shutdown.abort(), graceMs);
      await Promise.all([...runners.values()].map((runner) => runner.close()));
      clearTimeout(timer);
    },
  };
}
