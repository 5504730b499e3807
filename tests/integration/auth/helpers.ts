import type { FastifyInstance } from 'fastify';
import { TEST_SITE } from '../../site-under-test.ts';
import { buildTestApp, type TestAppOptions } from '../helpers/app.ts';
import { siteClient } from '../helpers/site-client.ts';

export { sessionCookie } from '../helpers/site-client.ts';

export const ORIGIN = TEST_SITE.publicUrl;

/** The real app listening on a free port (the simulated provider is reached over HTTP). */
export async function startApp(env: Record<string, string> = {}, options: TestAppOptions = {}) {
  const app: FastifyInstance = await buildTestApp({ PUBLIC_URL: ORIGIN, ...env }, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { app, base };
}

/** The test pages' origin (PUBLIC_URL of every test app): what a browser on them sends. */
const client = siteClient(ORIGIN);
export const REDIRECT_URI = client.redirectUri;
export const { api, authorizationCode, signIn, approvedMember } = client;

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
