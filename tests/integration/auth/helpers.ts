import type { FastifyInstance } from 'fastify';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { simulatedUserId } from '../../../server/threads/simulated/store.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { buildTestApp, type TestAppOptions } from '../helpers/app.ts';

export const ORIGIN = TEST_SITE.publicUrl;
export const REDIRECT_URI = `${ORIGIN}/auth/callback`;

/** The real app listening on a free port (the simulated provider is reached over HTTP). */
export async function startApp(env: Record<string, string> = {}, options: TestAppOptions = {}) {
  const app: FastifyInstance = await buildTestApp({ PUBLIC_URL: ORIGIN, ...env }, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { app, base };
}

/** Walks the simulated consent screen as `username` and returns the authorization code. */
export async function authorizationCode(base: string, username: string): Promise<string> {
  const response = await fetch(`${base}/simulated-threads/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: SIMULATED_APP.id,
      redirect_uri: REDIRECT_URI,
      scope: 'threads_basic',
      response_type: 'code',
      state: 'x',
      username,
      decision: 'authorize',
    }),
    redirect: 'manual',
  });
  return new URL(response.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

/** A JSON request as our own pages send it (same origin), with an optional session cookie. */
export function api(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { origin: ORIGIN, ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  return fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** The `name=value` part of the session cookie a response sets. */
export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.includes('ct_session='));
  return cookie?.split(';')[0] ?? '';
}

/** Signs in through the whole flow and returns the session cookie. */
export async function signIn(base: string, username: string, cookie?: string): Promise<string> {
  const response = await api(base, '/api/auth/callback', {
    method: 'POST',
    body: { code: await authorizationCode(base, username), redirect_uri: REDIRECT_URI },
    ...(cookie ? { cookie } : {}),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return sessionCookie(response);
}

/** Signs `username` in, asks for an invite and has the admin approve it; returns the member's cookie. */
export async function approvedMember(base: string, username: string): Promise<string> {
  const cookie = await signIn(base, username);
  await api(base, '/api/user/request-invite', { method: 'POST', cookie });
  const admin = await signIn(base, 'admin');
  const decision = await api(base, '/api/admin/approve-user', {
    method: 'POST',
    cookie: admin,
    body: { user_id: simulatedUserId(username) },
  });
  if (decision.status !== 200)
    throw new Error(`approval failed: ${decision.status} ${await decision.text()}`);
  return cookie;
}

/** Saves a member's display username and bio, as the profile form does. */
export function saveProfile(
  base: string,
  cookie: string,
  displayUsername: string,
  bio: string,
): Promise<Response> {
  return api(base, '/api/user/profile', {
    method: 'PUT',
    cookie,
    body: { display_username: displayUsername, bio },
  });
}
