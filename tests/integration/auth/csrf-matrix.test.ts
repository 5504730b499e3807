import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { approvedMember, ORIGIN, startApp } from './helpers.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FOREIGN: Record<string, string>[] = [
  { origin: 'http://evil.example' },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  // A sibling origin of the same site is not our pages: only PUBLIC_URL's Origin passes as same-site.
  { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:9' },
  { 'sec-fetch-site': 'cross-site', origin: ORIGIN },
  {}, // neither Origin nor Sec-Fetch-Site
];

/** The same route spelled so that a check on the raw URL would miss it; Fastify decodes all of them. */
function spellings(url: string): string[] {
  const path = url.replace(/:[a-z_]+/g, 'someone');
  return [path, path.replace('/api/', '/%61pi/'), path.replace('/api/', '/%61%70%69/')];
}

test('every unsafe API route, however its path is spelled, refuses cross-site requests; nothing changes', async () => {
  await resetDatabase(await testDatabase());
  const { app, base } = await startApp();
  try {
    const routes = app.apiRoutes.filter((route) => UNSAFE.has(route.method) && !route.crossSite);
    // The matrix is generated from the route table: a new unsafe route joins it automatically.
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/callback',
        'POST /api/user/request-invite',
        'PUT /api/user/profile',
        'POST /api/admin/approve-user',
      ]),
    );
    const cookie = await approvedMember(base, 'csrf_target');
    const { db } = await testDatabase();
    const snapshot = async () =>
      JSON.stringify(await db.execute(sql`select * from profiles order by user_id`));
    const before = await snapshot();
    let tried = 0;
    for (const route of routes) {
      for (const path of spellings(route.url)) {
        for (const headers of FOREIGN) {
          const response = await fetch(`${base}${path}`, {
            method: route.method,
            headers: { 'content-type': 'application/json', cookie, ...headers },
            body: JSON.stringify({
              display_username: 'hijacked',
              bio: 'hijacked',
              user_id: '1',
              code: 'x',
              redirect_uri: 'x',
            }),
          });
          expect(response.status, `${route.method} ${path} ${JSON.stringify(headers)}`).toBe(403);
          tried++;
        }
      }
    }
    expect(tried).toBe(routes.length * 3 * FOREIGN.length);
    expect(await snapshot()).toBe(before);
    // The session survived every attempt (logout is one of the routes).
    expect((await fetch(`${base}/api/auth/verify`, { headers: { cookie } })).status).toBe(200);
  } finally {
    await app.close();
  }
});

test('the Meta callbacks and the mailed links are the only routes open to other sites, and they demand a signature', async () => {
  const { app, base } = await startApp();
  try {
    expect(
      app.apiRoutes
        .filter((route) => route.crossSite)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([
      'POST /api/auth/data-deletion',
      'POST /api/auth/deauthorize',
      // A mail app's one-click unsubscribe posts from no page (RFC 8058): the link's HMAC is the defence (decision 054).
      'POST /api/digest/confirm',
      'POST /api/digest/unsubscribe',
      'POST /api/notice-mail/confirm',
      'POST /api/notice-mail/unsubscribe',
    ]);
    const link = `s=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}&t=${'A'.repeat(43)}`;
    for (const purpose of [
      'digest/confirm',
      'digest/unsubscribe',
      'notice-mail/confirm',
      'notice-mail/unsubscribe',
    ]) {
      const forged = await fetch(`${base}/api/${purpose}?${link}`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      });
      expect(forged.status, purpose).toBe(400);
    }
  } finally {
    await app.close();
  }
});
