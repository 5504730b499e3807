/**
 * `npm run admin -- check-live`: checks the settings a live Threads app needs (docs/going-live.md),
 * one line per check, and whether Threads accepts the app's id and secret. Prints no secret.
 */
import type { Config } from '../server/config.ts';
import { ThreadsApiError } from '../server/threads/gateway.ts';
import { createThreadsClient } from '../server/threads/live-client.ts';
import { CURATOR_SCOPES, MEMBER_SCOPES, threadsSettings } from '../server/threads/settings.ts';

export interface Check {
  ok: boolean;
  name: string;
  detail: string;
}

/** localhost or a loopback address: Threads refuses redirect URIs there (threads-api.md section 1). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The checks that need no network: mode, app, public address, callback addresses. */
function settingsChecks(config: Config): Check[] {
  const live = config.threads.mode === 'live';
  const url = config.publicUrl;
  const settings = threadsSettings(config);
  const origin = url.origin;
  return [
    {
      ok: live,
      name: 'mode',
      detail: live
        ? 'live: sign-in and curation talk to Threads'
        : 'simulated: set THREADS_APP_ID and THREADS_APP_SECRET (or THREADS_MODE=live)',
    },
    {
      ok: Boolean(config.threads.appId),
      name: 'app id',
      detail: config.threads.appId
        ? `THREADS_APP_ID is set (${config.threads.appId}); it must be the Threads app id, not the Meta app id`
        : 'THREADS_APP_ID is missing',
    },
    {
      ok: Boolean(config.threads.appSecret),
      name: 'app secret',
      detail: config.threads.appSecret ? 'THREADS_APP_SECRET is set' : 'THREADS_APP_SECRET is missing',
    },
    {
      ok: url.protocol === 'https:' && !isLoopback(url.hostname),
      name: 'public address',
      detail:
        url.protocol !== 'https:'
          ? `PUBLIC_URL ${origin} is not https: Threads accepts only https redirect URIs`
          : isLoopback(url.hostname)
            ? `PUBLIC_URL ${origin} is this machine: Threads does not accept localhost redirect URIs`
            : `PUBLIC_URL ${origin}`,
    },
    {
      ok: settings.redirectUris.every((uri) => uri.startsWith('https://')),
      name: 'redirect URIs',
      detail: `register exactly: ${settings.redirectUris.join(' and ')}`,
    },
    {
      ok: true,
      name: 'callbacks',
      detail: `deauthorize ${origin}/api/auth/deauthorize, data deletion ${origin}/api/auth/data-deletion`,
    },
    {
      ok: Boolean(config.secrets.sessionSecret && config.secrets.tokenKey),
      name: 'secrets',
      detail:
        config.secrets.sessionSecret && config.secrets.tokenKey
          ? 'SESSION_SECRET and TOKEN_KEY are set'
          : 'set SESSION_SECRET and TOKEN_KEY (openssl rand -hex 32): generated ones live only in DATA_DIR',
    },
    {
      ok: true,
      name: 'permissions',
      detail: `members ${MEMBER_SCOPES.join(',')}; curation account ${CURATOR_SCOPES.join(',')}`,
    },
  ];
}

/** Whether Threads accepts the app id and secret (an app token request, threads-api.md section 1). */
async function credentialsCheck(config: Config): Promise<Check> {
  const name = 'app credentials';
  if (!config.threads.appId || !config.threads.appSecret)
    return { ok: false, name, detail: 'not checked: the app id or secret is missing' };
  const client = createThreadsClient({
    graphBaseUrl: config.threads.graphBaseUrl,
    appId: config.threads.appId,
    appSecret: config.threads.appSecret,
  });
  try {
    await client.appToken();
    return { ok: true, name, detail: `accepted by ${config.threads.graphBaseUrl}` };
  } catch (error) {
    if (!(error instanceof ThreadsApiError)) throw error;
    return { ok: false, name, detail: `${config.threads.graphBaseUrl} refused them: ${error.message}` };
  }
}

/** Every check, in order. */
export async function checkLive(config: Config): Promise<Check[]> {
  return [...settingsChecks(config), await credentialsCheck(config)];
}

/** One printed line per check. */
export function checkLine(check: Check): string {
  return `${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`;
}
