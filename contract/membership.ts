import { PROFILE_STATUSES } from './profile-rules.ts';
import { z } from './zod.ts';

/** A signed-in person's invite state: 'none' before any request, then the profile's status. */
export const MEMBERSHIP_STATUSES = ['none', ...PROFILE_STATUSES] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** `GET /api/user/me`: who the signed-in person is, and what the site lets them do. */
export const MembershipSchema = z.strictObject({
  user_id: z.string(),
  username: z.string(),
  is_admin: z.boolean(),
  profile_status: z.enum(MEMBERSHIP_STATUSES),
});
export type Membership = z.infer<typeof MembershipSchema>;

/** Whether the person may submit threads and follow generated posts: an admin or an approved member. */
export function canSubmit(membership: Membership): boolean {
  return membership.is_admin || membership.profile_status === 'approved';
}

/** Texts of the members slice (issue 10): invite states outside /request-invite, dashboard and forms. */
export const MEMBER_TEXTS = {
  noInviteTitle: 'Members only',
  noInvite:
    'Only approved members can submit threads. Curated Threads is invite-only: ask for an invite, and submit once it is approved.',
  requestInviteLink: 'Request an invite',
  pendingInvite:
    'Your invite request is waiting for an administrator. You can submit threads once it is approved.',
  declinedInvite:
    'Your invite request was not approved, so you cannot submit threads. If you think this is a mistake, please contact the administrator.',
  membershipFailed: 'Failed to check your membership',
  saved: 'Saved',
  bioTooLong: 'Too long',
} as const;
