/**
 * Signing in over HTTP through the simulated Threads provider, as a browser would (the same walk as
 * tests/integration/auth/helpers.ts): `admin` signs in as an admin, anyone else as a plain user.
 */
import { SIMULATED_APP } from '../../server/threads/settings.ts';
import { simulatedUserId } from '../../server/threads/simulated/store.ts';

/** A JSON request as the site's own pages send it (same origin), with a session cookie when given. */
export async function api(
  base: string,
  urlPath: string,
  init: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { origin: base };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  return fetch(`${base}${urlPath}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** Like `api`, but a non-2xx answer is an error naming the request. */
export async function apiOk(
  base: string,
  urlPath: string,
  init: Parameters<typeof api>[2] = {},
): Promise<Response> {
  const response = await api(base, urlPath, init);
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${urlPath}: ${response.status} ${await response.text()}`);
  return response;
}

/** Signs `username` in through the simulated consent screen and the callback; returns the session cookie. */
export async function signIn(base: string, username: string): Promise<string> {
  const redirectUri = `${base}/auth/callback`;
  const consent = await fetch(`${base}/simulated-threads/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: SIMULATED_APP.id,
      redirect_uri: redirectUri,
      scope: 'threads_basic',
      response_type: 'code',
      state: 'bench',
      username,
      decision: 'authorize',
    }),
    redirect: 'manual',
  });
  const code = new URL(consent.headers.get('location') ?? '', base).searchParams.get('code');
  if (!code) throw new Error(`the simulated provider gave no code for ${username} (${consent.status})`);
  const callback = await apiOk(base, '/api/auth/callback', {
    method: 'POST',
    body: { code, redirect_uri: redirectUri },
  });
  const cookie = callback.headers.getSetCookie().find((value) => value.includes('ct_session='));
  if (!cookie) throw new Error(`signing in ${username} set no session cookie`);
  return cookie.split(';')[0] ?? '';
}

/** Signs `username` in, requests an invite and has the admin approve it; returns the member's cookie. */
export async function approvedMember(base: string, username: string): Promise<string> {
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
