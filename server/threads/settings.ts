import type { Config } from '../config.ts';

/** Where the simulated provider is mounted; its pages and endpoints live under this path. */
export const SIMULATED_PREFIX = '/simulated-threads';
/** The simulated app's credentials: public by design, it is a local stand-in for a Threads app. */
export const SIMULATED_APP = { id: '100000000000001', secret: 'simulated-app-secret-not-for-production' };
/** What sign-in asks for (spec section 6). */
export const THREADS_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_keyword_search',
  'threads_manage_insights',
] as const;

export interface ThreadsSettings {
  appId: string;
  appSecret: string;
  /** Where the browser is sent to authorize: threads.com, or the simulated provider on the API's origin. */
  authBaseUrl: string;
  /** The exact redirect URI registered with the app (PUBLIC_URL/auth/callback). */
  redirectUri: string;
  /** The redirect URIs the app accepts: the spec's callback page answers at both paths. */
  redirectUris: string[];
}

/** The Threads app this server signs in with, live or simulated. */
export function threadsSettings(config: Config): ThreadsSettings {
  const origin = config.publicUrl.origin;
  const redirectUris = [`${origin}/auth/callback`, `${origin}/callback`];
  const base = { redirectUri: redirectUris[0] ?? '', redirectUris };
  if (config.threads.mode === 'simulated') {
    return {
      ...base,
      appId: SIMULATED_APP.id,
      appSecret: SIMULATED_APP.secret,
      // Mounted on the API server, which is not the pages' origin when API_BASE_URL is set.
      authBaseUrl: `${config.apiBaseUrl ?? origin}${SIMULATED_PREFIX}`,
    };
  }
  return {
    ...base,
    appId: config.threads.appId ?? '',
    appSecret: config.threads.appSecret ?? '',
    authBaseUrl: config.threads.authBaseUrl,
  };
}
