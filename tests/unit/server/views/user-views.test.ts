import { expect, test } from 'vitest';
import { toAuthUser, toMembership } from '../../../../server/views/user-views.ts';
import { PROFILE, USER } from './rows.ts';

test('the signed-in user is their Threads user id and username, nothing else', () => {
  expect(toAuthUser(USER)).toEqual({ user_id: '17841400000000001', username: 'maren.makes' });
});

test.each([
  ['no invite request', false, null, 'none'],
  ['a pending request', false, PROFILE, 'pending'],
  ['an approved admin', true, { ...PROFILE, status: 'approved' as const }, 'approved'],
] as const)('membership with %s', (_name, admin, profile, status) => {
  expect(toMembership(USER, admin, profile)).toEqual({
    user_id: '17841400000000001',
    username: 'maren.makes',
    is_admin: admin,
    profile_status: status,
  });
});
