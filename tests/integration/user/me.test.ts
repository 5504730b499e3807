import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Membership } from '../../../contract/membership.ts';
import { MembershipSchema } from '../../../contract/membership.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { api, approvedMember, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

let app: FastifyInstance;
let base: string;
beforeAll(async () => ({ app, base } = await startApp()));
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

/** `GET /api/user/me` as `cookie`, checked against the contract. */
async function me(cookie: string): Promise<Membership> {
  const response = await api(base, '/api/user/me', { cookie });
  expect(response.status).toBe(200);
  return MembershipSchema.parse(await response.json());
}

describe('GET /api/user/me', () => {
  test('signed out, or with a session that is not ours: 401 with a detail', async () => {
    for (const cookie of [undefined, 'ct_session=forged']) {
      const response = await api(base, '/api/user/me', cookie ? { cookie } : {});
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'You are not signed in.' });
    }
  });

  test('a signed-in person without an invite request: none, not an admin', async () => {
    const cookie = await signIn(base, 'nina_none');
    expect(await me(cookie)).toEqual({
      user_id: simulatedUserId('nina_none'),
      username: 'nina_none',
      is_admin: false,
      profile_status: 'none',
    });
  });

  test('after asking for an invite: pending; once approved: approved; once declined: rejected', async () => {
    const pending = await signIn(base, 'pete_pending');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie: pending });
    expect(await me(pending)).toMatchObject({ profile_status: 'pending', is_admin: false });

    const approved = await approvedMember(base, 'ada_approved');
    expect(await me(approved)).toMatchObject({
      username: 'ada_approved',
      profile_status: 'approved',
      is_admin: false,
    });

    const declined = await signIn(base, 'rex_rejected');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie: declined });
    const admin = await signIn(base, 'admin');
    const decision = await api(base, '/api/admin/approve-user', {
      method: 'POST',
      cookie: admin,
      body: { user_id: simulatedUserId('rex_rejected'), action: 'reject' },
    });
    expect(decision.status).toBe(200);
    expect(await me(declined)).toMatchObject({ profile_status: 'rejected', is_admin: false });
  });

  test('an admin by configuration is an admin, with or without a profile', async () => {
    const admin = await signIn(base, 'admin');
    expect(await me(admin)).toEqual({
      user_id: simulatedUserId('admin'),
      username: 'admin',
      is_admin: true,
      profile_status: 'none',
    });
  });
});
