import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  api,
  authorizationCode,
  ORIGIN,
  REDIRECT_URI,
  sessionCookie,
  signIn,
  startApp,
} from '../auth/helpers.ts';

// The split deployment's API (decision 018): pages on PUBLIC_URL (ORIGIN) post to the API on another
// origin of the same site, so browsers send `Sec-Fetch-Site: same-site` with our Origin.
const SAME_SITE = { 'sec-fetch-site': 'same-site', origin: ORIGIN };
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  ({ app, base } = await startApp({ API_BASE_URL: 'http://127.0.0.1:4399' }));
});
afterAll(() => app.close());

test('sign-in from the pages on another origin of the site: the session cookie comes back, readable by them', async () => {
  const response = await api(base, '/api/auth/callback', {
    method: 'POST',
    headers: SAME_SITE,
    body: { code: await authorizationCode(base, 'split_member'), redirect_uri: REDIRECT_URI },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  const cookie = sessionCookie(response);
  expect(cookie).toMatch(/^ct_session=/);
  const verify = await api(base, '/api/auth/verify', { cookie, headers: SAME_SITE });
  expect(await verify.json()).toMatchObject({ authenticated: true, username: 'split_member' });
});

test('a state-changing call from our pages on another origin of the site passes the CSRF check', async () => {
  const cookie = await signIn(base, 'split_invitee');
  const response = await api(base, '/api/user/request-invite', {
    method: 'POST',
    cookie,
    headers: SAME_SITE,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
});

test.each<[string, Record<string, string>]>([
  ['a sibling origin of the same site', { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:9' }],
  ['same-site without an Origin', { 'sec-fetch-site': 'same-site' }],
  ['same-site with the opaque origin', { 'sec-fetch-site': 'same-site', origin: 'null' }],
  ['cross-site, even with our Origin', { 'sec-fetch-site': 'cross-site', origin: ORIGIN }],
  ['a foreign Origin without Sec-Fetch-Site', { origin: 'http://evil.example' }],
])('%s is still refused, and nothing changes', async (_name, headers) => {
  const cookie = await signIn(base, 'split_target');
  const attempt = await fetch(`${base}/api/user/request-invite`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', ...headers },
    body: '{}',
  });
  expect(attempt.status).toBe(403);
  expect(await attempt.json()).toEqual({
    detail: 'This request must come from the Curated Threads site itself.',
  });
  // Our own Origin may read the refusal; no other origin gets a CORS header.
  expect(attempt.headers.get('access-control-allow-origin')).toBe(headers.origin === ORIGIN ? ORIGIN : null);
  const me = await api(base, '/api/user/me', { cookie });
  expect(await me.json()).toMatchObject({ profile_status: 'none' });
});
