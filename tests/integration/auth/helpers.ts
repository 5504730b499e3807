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
export const { api, authorizationCode, signIn, signInCurator, approvedMember } = client;
export { CURATOR_GRANT, MEMBER_GRANT } from '../helpers/site-client.ts';

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

/**
 * Waits until a curation run has been recorded and none is running: the first admin sign-in on a
 * server that schedules jobs starts one in the background (decision 024). Returns the newest run.
 */
export async function settledRun(
  base: string,
  adminCookie: string,
): Promise<{ status: string; errors: string[] }> {
  for (let tries = 0; tries < 1200; tries++) {
    const response = await api(base, '/api/admin/runs', { cookie: adminCookie });
    const { runs } = (await response.json()) as { runs: { status: string; errors: string[] }[] };
    const newest = runs[0];
    if (newest && newest.status !== 'running') return newest;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no curation run finished');
}
