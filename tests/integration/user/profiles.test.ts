import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { USERNAME_MESSAGES, type OwnProfile } from '../../../contract/profile.ts';
import { eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../../server/db/errors.ts';
import { auditLog, profiles, users } from '../../../server/db/schema.ts';
import { createProfilesRepository } from '../../../server/repositories/profiles.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { api, approvedMember, signIn, startApp, saveProfile } from '../auth/helpers.ts';
import { buildTestApp } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { NO_COLLECTIONS } from '../../unit/helpers/profile-collections.ts';

let app: FastifyInstance;
let base: string;
beforeAll(async () => ({ app, base } = await startApp()));
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

const json = async <T>(response: Response) => (await response.json()) as T;

describe('invite requests', () => {
  test('signed out: 401; first request: pending, named after the Threads username; asking again changes nothing', async () => {
    expect((await api(base, '/api/user/request-invite', { method: 'POST' })).status).toBe(401);
    const cookie = await signIn(base, 'maren_makes');
    expect(await json(await api(base, '/api/user/profile', { cookie }))).toEqual({
      detail: 'Profile not found',
    });

    const first = await json<OwnProfile>(
      await api(base, '/api/user/request-invite', { method: 'POST', cookie }),
    );
    expect(first).toEqual({
      status: 'pending',
      threads_username: 'maren_makes',
      display_username: 'maren_makes',
      bio: '',
      ...NO_COLLECTIONS,
    });
    await api(base, '/api/user/request-invite', { method: 'POST', cookie });
    const { db } = await testDatabase();
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(profiles)).toEqual([{ n: 1 }]);
    expect(await json(await api(base, '/api/user/profile', { cookie }))).toEqual(first);
  });

  test('a Threads username that breaks the display rules starts without a display name', async () => {
    const cookie = await signIn(base, 'maren.makes');
    const profile = await json<OwnProfile>(
      await api(base, '/api/user/request-invite', { method: 'POST', cookie }),
    );
    expect(profile.display_username).toBeNull();
  });
});

test('an invite request whose starting name was just taken still succeeds, without a name', async () => {
  const holder = await approvedMember(base, 'first_holder');
  await saveProfile(base, holder, 'late_comer', '');
  // The check-then-insert race: the repository must surface the clash (the route then retries).
  const cookie = await signIn(base, 'late_comer');
  const { db } = await testDatabase();
  const [late] = await db.select().from(users).where(eq(users.threadsUsername, 'late_comer'));
  if (!late) throw new Error('no user');
  const clash = await createProfilesRepository(db)
    .requestInvite(late.id, 'late_comer')
    .catch((error: unknown) => error);
  expect(isUniqueViolation(clash)).toBe(true);
  const profile = await json<OwnProfile>(
    await api(base, '/api/user/request-invite', { method: 'POST', cookie }),
  );
  expect(profile).toMatchObject({ status: 'pending', display_username: null });
});

describe('editing a profile', () => {
  test('only approved profiles can be edited', async () => {
    const cookie = await signIn(base, 'pending_pat');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie });
    const response = await api(base, '/api/user/profile', {
      method: 'PUT',
      cookie,
      body: { display_username: 'pat', bio: '' },
    });
    expect(response.status).toBe(403);
    expect(await json(response)).toEqual({ detail: 'Only approved profiles can be edited.' });
  });

  test('an approved member saves a name and bio; the public page shows them, found without regard to case', async () => {
    const cookie = await approvedMember(base, 'tobi');
    const saved = await api(base, '/api/user/profile', {
      method: 'PUT',
      cookie,
      body: { display_username: 'Tobi_Grids', bio: 'Grids & type. <script>alert(1)</script>' },
    });
    expect(saved.status).toBe(200);
    expect(await json<OwnProfile>(saved)).toMatchObject({
      status: 'approved',
      display_username: 'Tobi_Grids',
    });
    const page = await api(base, '/api/user/profile/tobi_grids');
    expect(await json(page)).toEqual({
      username: 'Tobi_Grids',
      threads_username: 'tobi',
      bio: 'Grids & type. <script>alert(1)</script>',
      ...NO_COLLECTIONS,
    });
  });

  test.each([
    [{ display_username: 'ab', bio: '' }, 400, `display_username: ${USERNAME_MESSAGES.length}`],
    [{ display_username: 'dot.name', bio: '' }, 400, `display_username: ${USERNAME_MESSAGES.characters}`],
    [{ display_username: 'Submit', bio: '' }, 400, `display_username: ${USERNAME_MESSAGES.reserved}`],
    [
      { display_username: 'valid_name', bio: 'x'.repeat(301) },
      400,
      'bio: Bio must be at most 300 characters.',
    ],
    [{ display_username: 'valid_name', bio: '', status: 'approved' }, 400, 'Unknown field: status.'],
    [{ display_username: 'valid_name', bio: '', user_id: 'someone-else' }, 400, 'Unknown field: user_id.'],
    [{ display_username: 'valid_name' }, 400, 'bio:'],
  ])('%o → %d %s, nothing changed', async (body, status, detail) => {
    const cookie = await approvedMember(base, 'erin');
    const response = await api(base, '/api/user/profile', { method: 'PUT', cookie, body });
    expect(response.status).toBe(status);
    expect((await json<{ detail: string }>(response)).detail).toContain(detail);
    expect((await json<OwnProfile>(await api(base, '/api/user/profile', { cookie }))).display_username).toBe(
      'erin',
    );
  });

  test(
    "a name another member holds, in any case, is refused with 409; the other member's row is untouched",
    { tags: ['engine'] },
    async () => {
      const first = await approvedMember(base, 'alice');
      await saveProfile(base, first, 'Alice_Designs', 'mine');
      const second = await approvedMember(base, 'bob');
      const response = await saveProfile(base, second, 'ALICE_DESIGNS', '');
      expect(response.status).toBe(409);
      expect(await json(response)).toEqual({ detail: USERNAME_MESSAGES.taken });
      expect(await json(await api(base, '/api/user/profile/alice_designs'))).toMatchObject({
        threads_username: 'alice',
        bio: 'mine',
      });
    },
  );
});

describe('public profiles', () => {
  test('a public profile is served from the cache until its member saves it: the next read shows the save', async () => {
    const cookie = await approvedMember(base, 'cached_member');
    await saveProfile(base, cookie, 'Cached_Member', 'first');
    expect(await json(await api(base, '/api/user/profile/cached_member'))).toMatchObject({ bio: 'first' });
    // A change behind the API's back (no write through it): the next answer still comes from the cache.
    const { db } = await testDatabase();
    const member = await createUsersRepository(db).findByThreadsUserId(simulatedUserId('cached_member'));
    if (!member) throw new Error('the member is missing');
    await db.update(profiles).set({ bio: 'behind the cache' }).where(eq(profiles.userId, member.id));
    expect(await json(await api(base, '/api/user/profile/cached_member'))).toMatchObject({ bio: 'first' });
    expect((await saveProfile(base, cookie, 'Cached_Member', 'second')).status).toBe(200);
    expect(await json(await api(base, '/api/user/profile/cached_member'))).toMatchObject({ bio: 'second' });
    // A rename: the old name is no longer found, the new one is.
    expect((await saveProfile(base, cookie, 'Renamed_Member', 'second')).status).toBe(200);
    expect((await api(base, '/api/user/profile/cached_member')).status).toBe(404);
    expect((await api(base, '/api/user/profile/renamed_member')).status).toBe(200);
  });

  test('pending, unknown and impossible names are all "Profile not found"', async () => {
    const cookie = await signIn(base, 'quinn');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie });
    for (const name of ['quinn', 'nobody_here', 'not.valid', '%27%20or%201%3D1']) {
      const response = await api(base, `/api/user/profile/${name}`);
      expect(response.status, name).toBe(404);
      expect(await json(response)).toEqual({ detail: 'Profile not found' });
    }
  });
});

describe('admin decisions', () => {
  test('the pending list and decisions are for admins only: 401 signed out, 403 members, admin 200', async () => {
    const member = await signIn(base, 'mia');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie: member });
    const body = { user_id: simulatedUserId('mia') };
    expect((await api(base, '/api/admin/pending-users')).status).toBe(401);
    expect((await api(base, '/api/admin/pending-users', { cookie: member })).status).toBe(403);
    expect(
      (await api(base, '/api/admin/approve-user', { method: 'POST', cookie: member, body })).status,
    ).toBe(403);

    const admin = await signIn(base, 'admin');
    const list = await json<{ users: { user_id: string; threads_username: string }[] }>(
      await api(base, '/api/admin/pending-users', { cookie: admin }),
    );
    expect(list.users.map((u) => u.threads_username)).toEqual(['mia']);
  });

  test('approve, then a second decision on the same request is 409; each decision writes one audit row', async () => {
    const member = await signIn(base, 'noah');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie: member });
    const admin = await signIn(base, 'admin');
    const decide = (action?: 'reject') =>
      api(base, '/api/admin/approve-user', {
        method: 'POST',
        cookie: admin,
        body: { user_id: simulatedUserId('noah'), ...(action ? { action } : {}) },
      });
    expect(await json(await decide())).toEqual({ success: true, status: 'approved' });
    const again = await decide('reject');
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ detail: 'This request was already decided (approved).' });
    const { db } = await testDatabase();
    const rows = await db.execute(sql`select action from audit_log`);
    expect(JSON.stringify(rows)).toContain('user.approve');
    expect(JSON.stringify(rows)).not.toContain('user.reject');
  });

  test('reject, unknown users and users without a request', async () => {
    const member = await signIn(base, 'olga');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie: member });
    const lurker = await signIn(base, 'lurker');
    void lurker;
    const admin = await signIn(base, 'admin');
    const decide = (userId: string, action?: 'reject') =>
      api(base, '/api/admin/approve-user', {
        method: 'POST',
        cookie: admin,
        body: { user_id: userId, ...(action ? { action } : {}) },
      });
    expect(await json(await decide(simulatedUserId('olga'), 'reject'))).toEqual({
      success: true,
      status: 'rejected',
    });
    expect(await json<OwnProfile>(await api(base, '/api/user/profile', { cookie: member }))).toMatchObject({
      status: 'rejected',
    });
    expect(await json(await decide('17841499999999999'))).toEqual({ detail: 'No such user.' });
    expect(await json(await decide(simulatedUserId('lurker')))).toEqual({
      detail: 'This user has not asked for an invite.',
    });
  });

  test(
    '20 admins approving the same request at once: exactly one succeeds, 19 get 409, one audit row',
    { tags: ['engine'] },
    async () => {
      const member = await signIn(base, 'race_target');
      await api(base, '/api/user/request-invite', { method: 'POST', cookie: member });
      const admin = await signIn(base, 'admin');
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          api(base, '/api/admin/approve-user', {
            method: 'POST',
            cookie: admin,
            body: { user_id: simulatedUserId('race_target') },
          }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
      const { db } = await testDatabase();
      expect(await db.select().from(auditLog)).toHaveLength(1);
    },
  );

  test('a granted or revoked admin role applies on the very next request', async () => {
    const cookie = await signIn(base, 'promoted');
    expect((await api(base, '/api/admin/pending-users', { cookie })).status).toBe(403);
    const { db } = await testDatabase();
    const usersRepository = createUsersRepository(db);
    const [promoted] = await usersRepository.findByThreadsUsername('promoted');
    if (!promoted) throw new Error('the signed-in user is missing');
    await usersRepository.setAdmin(promoted.id, true);
    expect((await api(base, '/api/admin/pending-users', { cookie })).status).toBe(200);
    await usersRepository.setAdmin(promoted.id, false);
    expect((await api(base, '/api/admin/pending-users', { cookie })).status).toBe(403);
  });
});

test('deny by default: an /api route without an access rule stops the server from starting', async () => {
  const bare = await buildTestApp();
  try {
    expect(() => bare.get('/api/forgotten', async () => ({}))).toThrow('declares no access rule');
    expect(() => bare.get('/api/declared', { config: { access: 'public' } }, async () => ({}))).not.toThrow();
  } finally {
    await bare.close();
  }
});
