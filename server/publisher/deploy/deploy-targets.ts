import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createAppMetaRepository } from '../../repositories/app-meta.ts';
import { PROJECT_ROOT, publishedDigestsFile, publishedProfilesFile } from '../build/build-site.ts';
import { runDeployCommand } from './deploy-command.ts';
import { callDeployHook, type DeployLog } from './deploy-hook.ts';
import type { RetryPolicy } from './deploy-retry.ts';
import {
  createSiteDeploy,
  identityOf,
  readExportedContent,
  type DeployTarget,
  type SiteDeploy,
} from './site-deploy.ts';

/** In production a burst of approvals (an admin working through the queue) is gathered this long. */
export const DEPLOY_DELAY_MS = 10_000;

export interface SiteDeployOptions {
  delayMs?: number | undefined;
  /** The hook's retry policy and the wait between attempts (tests make both instant). */
  retryPolicy?: RetryPolicy | undefined;
  wait?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
}

/** The configured rebuild triggers: DEPLOY_HOOK_URL and DEPLOY_COMMAND, each independent of the other. */
function targetsFor(config: Config, log: DeployLog, options: SiteDeployOptions): DeployTarget[] {
  const targets: DeployTarget[] = [];
  const { hookUrl, command } = config.deploy;
  if (hookUrl) {
    targets.push({
      name: 'hook',
      identity: identityOf(hookUrl.href),
      deliver: (content, signal) =>
        callDeployHook(
          hookUrl,
          { version: content.version, generatedAt: content.generatedAt },
          { log, signal, policy: options.retryPolicy, wait: options.wait },
        ),
    });
  }
  if (command) {
    targets.push({
      name: 'command',
      identity: identityOf(command),
      deliver: (content, signal) =>
        runDeployCommand(command, {
          log,
          signal,
          cwd: PROJECT_ROOT,
          // The operator's own command, run with the server's environment plus what changed.
          env: {
            ...process.env,
            CATALOGUE_VERSION: content.version ?? '',
            CATALOGUE_GENERATED_AT: content.generatedAt ?? '',
          },
        }),
    });
  }
  return targets;
}

/**
 * The site deploy a server configuration implies, or null when neither DEPLOY_HOOK_URL nor
 * DEPLOY_COMMAND is set. Deliveries take the database's job lock and record what each target
 * received in app_meta, so several instances make one delivery per change between them.
 */
export function siteDeployFor(
  config: Config,
  database: DatabaseHandle,
  log: DeployLog,
  options: SiteDeployOptions = {},
): SiteDeploy | null {
  const targets = targetsFor(config, log, options);
  if (targets.length === 0) return null;
  const meta = createAppMetaRepository(database.db);
  // Without the pages (SERVE_SITE=false) the server exports no profiles: only the catalogue counts.
  const profilesFile = config.serveSite ? publishedProfilesFile(config) : undefined;
  const digestsFile = config.serveSite ? publishedDigestsFile(config) : undefined;
  return createSiteDeploy({
    targets,
    readContent: () => readExportedContent(config.catalogueDir, profilesFile, digestsFile),
    lock: (name, job) => database.withJobLock(name, job),
    store: { get: (key) => meta.get(key), set: (key, value) => meta.set(key, value) },
    log,
    delayMs: options.delayMs ?? DEPLOY_DELAY_MS,
  });
}
