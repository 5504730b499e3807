import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { USERNAME_MESSAGES, type OwnProfile } from '../../../contract/profile.ts';
import { api, approvedMember, saveProfile, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// Lookalike display names (decision 065), through PUT /api/user/profile and the invite request.
let app: FastifyInstance;
let base: string;
beforeAll(async () => ({ app, base } = await startApp()));
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

async function refusal(response: Response): Promise<[number, string]> {
  return [response.status, ((await response.json()) as { detail: string }).detail];
}

test("a lookalike of another person's Threads handle is refused with 409, saying only that it looks like one", async () => {
  await signIn(base, 'ori.ux');
  const maren = await approvedMember(base, 'maren');
  for (const name of ['ori_ux', 'oriux', 'OriUX', '0ri_ux', 'or1_ux', 'orl_ux'])
    expect(await refusal(await saveProfile(base, maren, name, '')), name).toEqual([
      409,
      USERNAME_MESSAGES.threadsHandleLookalike,
    ]);
  // The exact handle (where display names allow its characters) keeps its own message.
  await signIn(base, 'bo_b');
  expect(await refusal(await saveProfile(base, maren, 'BO_B', ''))).toEqual([
    409,
    USERNAME_MESSAGES.threadsHandle,
  ]);
  expect((await saveProfile(base, maren, 'ori_ux_fan', '')).status).toBe(200);
});

test('a lookalike of a reserved name is refused with 400, beside the field', async () => {
  const maren = await approvedMember(base, 'maren');
  for (const name of ['adm1n', 'ADM_IN', 'sign_in', 'r00t'])
    expect(await refusal(await saveProfile(base, maren, name, '')), name).toEqual([
      400,
      `display_username: ${USERNAME_MESSAGES.reservedLookalike}`,
    ]);
  expect((await saveProfile(base, maren, 'admins_friend', '')).status).toBe(200);
});

test("one's own handle folded is one's own to take, even when a third person's handle folds alike", async () => {
  const owner = await approvedMember(base, 'ori.ux');
  // A dot is not allowed in a display name: the invite started without one.
  const first = (await (await api(base, '/api/user/profile', { cookie: owner })).json()) as OwnProfile;
  expect(first.display_username).toBeNull();
  await signIn(base, 'or1ux');
  for (const name of ['ori_ux', 'OriUX', '0ri_ux'])
    expect((await saveProfile(base, owner, name, '')).status, name).toBe(200);
  // ...but not the third person's exact handle.
  expect(await refusal(await saveProfile(base, owner, 'or1ux', ''))).toEqual([
    409,
    USERNAME_MESSAGES.threadsHandle,
  ]);
});

test("a lookalike of another member's display name is refused; the exact name keeps 'already taken'", async () => {
  const holder = await approvedMember(base, 'holder');
  expect((await saveProfile(base, holder, 'Grid_Master', '')).status).toBe(200);
  const other = await approvedMember(base, 'other');
  for (const name of ['gridmaster', 'GR1D_MASTER', 'grid_masteR'])
    expect(await refusal(await saveProfile(base, other, name, '')), name).toEqual([
      409,
      name.toLowerCase() === 'grid_master' ? USERNAME_MESSAGES.taken : USERNAME_MESSAGES.takenLookalike,
    ]);
  // The holder may respell their own name.
  expect((await saveProfile(base, holder, 'Gr1d_Master', '')).status).toBe(200);
});

test("an invite request does not start with a handle that looks like someone else's name", async () => {
  const holder = await approvedMember(base, 'holder');
  expect((await saveProfile(base, holder, 'lena_designs', '')).status).toBe(200);
  for (const handle of ['lena_des1gns', 'adm1n']) {
    const cookie = await signIn(base, handle);
    const response = await api(base, '/api/user/request-invite', { method: 'POST', cookie });
    expect(((await response.json()) as OwnProfile).display_username, handle).toBeNull();
  }
});

test(
  'members saving lookalike names at the same moment: one gets it, the others a 409',
  { tags: ['engine'] },
  async () => {
    const names = ['type_nerd', 'TYPE_NERD', 'typenerd', 'type_nerd_'];
    const members = await Promise.all(names.map((_, at) => approvedMember(base, `member_${at}`)));
    const responses = await Promise.all(
      names.map((name, at) => saveProfile(base, members[at] ?? '', name, '')),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409]);
    // A save the unique index stopped (on PostgreSQL) is told why as one the check stopped is.
    const refused = [USERNAME_MESSAGES.taken, USERNAME_MESSAGES.takenLookalike];
    for (const response of responses.filter(({ status }) => status === 409))
      expect(refused).toContain(((await response.json()) as { detail: string }).detail);
  },
);
