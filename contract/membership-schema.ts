import { z } from 'zod';
import { MEMBERSHIP_STATUSES, type Membership } from './membership.ts';

/** `GET /api/user/me` as a schema, for tests and any client that checks answers (islands use the type). */
export const MembershipSchema = z
  .object({
    user_id: z.string(),
    username: z.string(),
    is_admin: z.boolean(),
    profile_status: z.enum(MEMBERSHIP_STATUSES),
  })
  .strict() satisfies z.ZodType<Membership>;
