import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { api, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The 500s the route fuzz (openapi-routes.test.ts) found, each pinned with the request that found
// it: the fuzz may stop generating that exact value when the generators change.
let app: FastifyInstance;
let base: string;
let admin: string;

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp());
  admin = await signIn(base, 'admin');
});
afterAll(() => app.close());

test('approve-user: a user id that is not a Threads id (a NUL answered 500) is a 400 naming the field', async () => {
  for (const user_id of ['\u0000', '1\u0000', '\uD800', 'someone', ' 17841400000000', '']) {
    const response = await api(base, '/api/admin/approve-user', {
      method: 'POST',
      cookie: admin,
      body: { user_id },
    });
    expect(response.status, JSON.stringify(user_id)).toBe(400);
    expect(await response.json()).toEqual({ detail: 'user_id: must be a Threads user id (digits)' });
  }
  // A well-formed id of nobody is still "no such user".
  const nobody = await api(base, '/api/admin/approve-user', {
    method: 'POST',
    cookie: admin,
    body: { user_id: simulatedUserId('nobody_signed_in') },
  });
  expect(nobody.status).toBe(404);
});
