/**
 * `check-live` (scripts/check-live.ts) and `check-config`: what the server would run with, read from
 * the same environment, without opening the database. Secrets are never printed.
 */
import { loadConfig, type Config } from '../../server/config.ts';
import { checkLine, checkLive } from '../check-live.ts';
import { printJson, printTable, type Command } from './cli.ts';

const hidden = (value: unknown) => (value ? 'set (hidden)' : 'not set');

/** A URL with its password (and a hook's path and query, which carry its token) hidden. */
function maskedUrl(url: string | URL | undefined, keepPath: boolean): string {
  if (!url) return 'not set';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return keepPath ? parsed.toString() : `${parsed.origin}/*** (path hidden)`;
}

/** The settings worth seeing before a start, as [variable, value] pairs. */
export function configSettings(config: Config): [string, string][] {
  const list = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : '(none)');
  return [
    ['NODE_ENV', config.env],
    ['THREADS_MODE', config.threads.mode],
    ['PUBLIC_URL', config.publicUrl.origin],
    ['API_BASE_URL', config.apiBaseUrl ?? '(same origin as PUBLIC_URL)'],
    ['HOST:PORT', `${config.host}:${config.port}`],
    ['DATABASE_URL', config.databaseUrl ? maskedUrl(config.databaseUrl, true) : 'not set: embedded database'],
    ['DATABASE_LISTEN_URL', config.databaseUrl ? maskedUrl(config.databaseListenUrl, true) : '(not used)'],
    ['DATA_DIR', config.dataDir],
    ['SITE_DIR', config.siteDir],
    ['SERVE_SITE', String(config.serveSite)],
    ['CATALOGUE_DIR', config.catalogueDir],
    ['THREADS_APP_ID', config.threads.appId ?? 'not set'],
    ['THREADS_APP_SECRET', hidden(config.threads.appSecret)],
    ['SESSION_SECRET', config.secrets.sessionSecret ? 'set (hidden)' : 'not set: generated into DATA_DIR'],
    ['TOKEN_KEY', config.secrets.tokenKey ? 'set (hidden)' : 'not set: generated into DATA_DIR'],
    ['ADMIN_THREADS_USERNAMES', list(config.adminUsernames)],
    [
      'ALLOWED_THREADS_USERNAMES',
      config.allowedUsernames.length > 0 ? list(config.allowedUsernames) : '(anyone)',
    ],
    ['CURATOR_THREADS_USERNAME', config.curation.curatorUsername ?? '(the first admin with a working token)'],
    ['CURATION_KEYWORDS', list(config.curation.keywords)],
    ['CURATION_TAGS', list(config.curation.tags)],
    ['CURATION_SEARCH_BUDGET', String(config.curation.searchBudget)],
    ['REFRESH_INTERVAL_MINUTES', String(config.refreshIntervalMinutes)],
    ['MEMBER_PUBLISH_INTERVAL_MINUTES', String(config.memberPublishIntervalMinutes)],
    ['DEPLOY_HOOK_URL', maskedUrl(config.deploy.hookUrl, false)],
    ['DEPLOY_COMMAND', hidden(config.deploy.command)],
    ['TRUST_PROXY_HOPS', String(config.trustProxyHops)],
    ['LOG_LEVEL', config.logLevel],
  ];
}

/** The commands that read the configuration only. */
export const configCommands: Command[] = [
  {
    name: 'check-config',
    params: [],
    summary: 'loads the configuration and prints each setting that matters, secrets hidden',
    json: true,
    run: ({ json, io }) => {
      const settings = configSettings(loadConfig(io.env));
      if (json) printJson(io, Object.fromEntries(settings));
      else printTable(io, ['SETTING', 'VALUE'], settings);
      return Promise.resolve();
    },
  },
  {
    name: 'check-live',
    params: [],
    summary: 'checks the settings a live Threads app needs, and its id and secret with Threads',
    run: async ({ io }) => {
      const checks = await checkLive(loadConfig(io.env));
      for (const check of checks) io.stdout(checkLine(check));
      const failed = checks.filter((check) => !check.ok).length;
      io.stdout(failed === 0 ? 'Ready for a live Threads app.' : `${failed} check(s) failed.`);
      return failed === 0 ? 0 : 1;
    },
  },
];
