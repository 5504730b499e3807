import type { Config } from '../config.ts';

/** Where the simulated provider is mounted; its pages and endpoints live under this path. */
export const SIMULATED_PREFIX = '/simulated-threads';
/** The simulated app's credentials: public by design, it is a local stand-in for a Threads app. */
export const SIMULATED_APP = { id: '100000000000001', secret: 'simulated-app-secret-not-for-production' };
/**
 * What a member's sign-in asks for: `threads_basic` alone (id and username, and the member's own posts
 * for My Threads). App Review wants a reason per permission, and members never search or publish
 * (decision 024, a deliberate departure from the spec's "threads_basic and threads_content_publish").
 */
export const MEMBER_SCOPES = ['threads_basic'] as const;

/**
 * What the curation account grants when an admin connects it from the dashboard (decision 024):
 * - threads_basic: required by every endpoint (threads-api.md section 1);
 * - threads_keyword_search: keyword and topic-tag searches of public posts (section 3); without it
 *   search covers only the account's own posts;
 * - threads_manage_insights: likes and replies of the account's own posts (section 4);
 * - threads_content_publish: the generated posts about approved submissions (section 10, publishing).
 */
export const CURATOR_SCOPES = [
  'threads_basic',
  'threads_keyword_search',
  'threads_manage_insights',
  'threads_content_publish',
] as const;
export type CuratorScope = (typeof CURATOR_SCOPES)[number];

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
