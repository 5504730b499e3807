import type { AuthConfig } from '../../contract/auth.ts';

/** Session-storage key of the OAuth state (spec: kept in session storage). */
export const OAUTH_STATE_KEY = 'curated-threads:oauth-state';
/** The redirect URI the authorize request used: the code exchange must send the same one. */
export const OAUTH_REDIRECT_KEY = 'curated-threads:oauth-redirect-uri';
/** Where the callback sends the browser after success: home, or the dashboard after a connect. */
export const OAUTH_RETURN_KEY = 'curated-threads:oauth-return-to';

/** The callback page's two addresses (spec: /auth/callback and /callback). */
export const CALLBACK_PATHS: readonly string[] = ['/auth/callback', '/callback'];

/** The pages a sign-in may return to; anything else stored under OAUTH_RETURN_KEY means home. */
const RETURN_PATHS: readonly string[] = ['/', '/dashboard'];

/** The path to land on after sign-in: a known page of ours, never a URL from elsewhere. */
export function returnPath(stored: string | null): string {
  return stored && RETURN_PATHS.includes(stored) ? stored : '/';
}

/** 32 hex characters from 8 random 32-bit values, 16 bits of each: 128 bits in all (spec section 5). */
export function createOAuthState(
  random: (values: Uint32Array<ArrayBuffer>) => Uint32Array = (values) => crypto.getRandomValues(values),
): string {
  return Array.from(random(new Uint32Array(8)), (value) => (value >>> 16).toString(16).padStart(4, '0')).join(
    '',
  );
}

/**
 * The provider's authorize URL: client_id, redirect_uri, comma-joined scope, response_type=code,
 * state. A member's sign-in asks for `config.scopes`; connecting the curation account passes
 * `config.curator_scopes`.
 */
export function authorizeUrl(
  config: AuthConfig,
  state: string,
  scopes: readonly string[] = config.scopes,
): string {
  const params = new URLSearchParams({
    client_id: config.client_id,
    redirect_uri: config.redirect_uri,
    scope: scopes.join(','),
    response_type: 'code',
    state,
  });
  return `${config.auth_base_url}/oauth/authorize?${params}`;
}
