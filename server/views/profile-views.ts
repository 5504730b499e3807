import type { ProfileCollections } from '../../contract/gems.ts';
import type { OwnProfile, PendingUser, PublicProfile } from '../../contract/profile.ts';
import type { ProfileWithUser } from '../repositories/profiles.ts';

/**
 * What anyone may see of an approved member, with their gems and approved own threads
 * (services/profiles/profile-collections.ts): the API answer and the pre-rendered page alike.
 */
export function toPublicProfile(
  { profile, user }: ProfileWithUser,
  collections: ProfileCollections,
): PublicProfile {
  return {
    username: profile.displayUsername ?? user.threadsUsername,
    threads_username: user.threadsUsername,
    bio: profile.bio,
    ...collections,
  };
}

/** The signed-in user's own profile, whatever its status, with their gems and approved own threads. */
export function toOwnProfile(
  { profile, user }: ProfileWithUser,
  collections: ProfileCollections,
): OwnProfile {
  return {
    status: profile.status,
    threads_username: user.threadsUsername,
    display_username: profile.displayUsername,
    bio: profile.bio,
    ...collections,
  };
}

/** An invite request as the admins' Pending Users list shows it. */
export function toPendingUser({ profile, user }: ProfileWithUser): PendingUser {
  return {
    user_id: user.threadsUserId,
    threads_username: user.threadsUsername,
    display_username: profile.displayUsername,
    bio: profile.bio,
    requested_at: profile.requestedAt.toISOString(),
  };
}
