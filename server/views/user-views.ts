import type { RefreshResponse } from '../../contract/auth.ts';
import type { Membership } from '../../contract/membership.ts';
import type { Profile } from '../repositories/profiles.ts';
import type { User } from '../repositories/users.ts';

/** The signed-in user as the browser may know them: the Threads user id and username, never a token. */
export function toAuthUser(user: User): RefreshResponse {
  return { user_id: user.threadsUserId, username: user.threadsUsername };
}

/** The signed-in person's id, name, admin role and invite state, for the site's gating. */
export function toMembership(user: User, isAdmin: boolean, profile: Profile | null): Membership {
  return {
    ...toAuthUser(user),
    is_admin: isAdmin,
    profile_status: profile?.status ?? 'none',
  };
}
