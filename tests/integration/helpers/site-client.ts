/**
 * What a browser on `origin` does over HTTP: JSON calls as the site's own pages send them, and the
 * sign-in walk through the simulated Threads provider's consent screen and our callback (`admin` signs
 * in as an admin, anyone else as a plain user). Shared by the integration tests and `npm run bench`.
 */
import { CURATOR_SCOPES, MEMBER_SCOPES, SIMULATED_APP } from '../../../server/threads/settings.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';

export interface ApiInit {
  method?: string;
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
}

/** The `name=value` part of the session cookie a response sets ('' when it sets none). */
export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.includes('ct_session='));
  return cookie?.split(';')[0] ?? '';
}

/** What the login button asks for (decision 024). */
export const MEMBER_GRANT: readonly string[] = MEMBER_SCOPES;
/** What connecting the curation account from the dashboard asks for. */
export const CURATOR_GRANT: readonly string[] = CURATOR_SCOPES;

export interface SignInOptions {
  /** The session cookie to send along (a second sign-in in the same browser). */
  cookie?: string;
  /** The scopes requested and granted on the consent page; a member's by default. */
  scopes?: readonly string[];
  /** Requested scopes whose box is unticked on the consent page. */
  untick?: readonly string[];
}

/** A client for the pages on `origin` (PUBLIC_URL), calling a server at the `base` each call names. */
export function siteClient(origin: string) {
  const redirectUri = `${origin}/auth/callback`;

  /** A JSON request as our own pages send it (same origin), with an optional session cookie. */
  function api(base: string, path: string, init: ApiInit = {}): Promise<Response> {
    const headers: Record<string, string> = { origin, ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.cookie) headers.cookie = init.cookie;
    return fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  }

  /** Like `api`, but a non-2xx answer is an error naming the request. */
  async function apiOk(base: string, path: string, init: ApiInit = {}): Promise<Response> {
    const response = await api(base, path, init);
    if (!response.ok)
      throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return response;
  }

  /**
   * Walks the simulated consent screen as `username`, asking for `scopes` (a member's by default) and
   * leaving every box ticked but `untick`; returns the authorization code.
   */
  async function authorizationCode(
    base: string,
    username: string,
    { scopes = MEMBER_GRANT, untick = [] }: Pick<SignInOptions, 'scopes' | 'untick'> = {},
  ): Promise<string> {
    const ticked = scopes.filter((scope) => !untick.includes(scope));
    const response = await fetch(`${base}/simulated-threads/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: SIMULATED_APP.id,
        redirect_uri: redirectUri,
        scope: scopes.join(','),
        response_type: 'code',
        state: 'x',
        username,
        decision: 'authorize',
        // The consent page's ticked boxes.
        ...Object.fromEntries(ticked.map((scope) => [`grant_${scope}`, 'on'])),
      }),
      redirect: 'manual',
    });
    return new URL(response.headers.get('location') ?? '', base).searchParams.get('code') ?? '';
  }

  /**
   * Signs in through the whole flow and returns the session cookie. A member's scopes by default;
   * `{scopes: CURATOR_GRANT}` is an admin connecting the curation account.
   */
  async function signIn(base: string, username: string, options: SignInOptions = {}): Promise<string> {
    const { cookie, ...grant } = options;
    const response = await apiOk(base, '/api/auth/callback', {
      method: 'POST',
      body: { code: await authorizationCode(base, username, grant), redirect_uri: redirectUri },
      ...(cookie ? { cookie } : {}),
    });
    return sessionCookie(response);
  }

  /** The admin connecting the curation account with every curation scope; returns their cookie. */
  function signInCurator(base: string, username = 'admin'): Promise<string> {
    return signIn(base, username, { scopes: CURATOR_GRANT });
  }

  /** Signs `username` in, asks for an invite and has the admin approve it; returns the member's cookie. */
  async function approvedMember(base: string, username: string): Promise<string> {
    const cookie = await signIn(base, username);
    await apiOk(base, '/api/user/request-invite', { method: 'POST', cookie });
    const admin = await signIn(base, 'admin');
    await apiOk(base, '/api/admin/approve-user', {
      method: 'POST',
      cookie: admin,
      body: { user_id: simulatedUserId(username) },
    });
    return cookie;
  }

  return { redirectUri, api, apiOk, authorizationCode, signIn, signInCurator, approvedMember };
}
