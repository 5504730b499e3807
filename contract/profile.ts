import { z } from './zod.ts';
import { ProfileCollectionsSchema } from './gems.ts';
import { bioProblem, chosenUsernameProblem, PendingUserSchema, PROFILE_STATUSES } from './profile-rules.ts';

export * from './profile-rules.ts';

/** A check that reports `problem(value)` (a sentence, or null when the value is fine) as its issue. */
function ruled(problem: (value: string) => string | null) {
  return z.superRefine((value: string, ctx) => {
    const found = problem(value);
    if (found) ctx.addIssue({ code: 'custom', message: found, input: value });
  });
}

/** `PUT /api/user/profile`: only these two fields; anything else is refused. */
export const ProfileUpdateSchema = z.strictObject({
  display_username: z.string().check(z.maxLength(200), ruled(chosenUsernameProblem)),
  bio: z.string().check(
    z.maxLength(4000),
    ruled(bioProblem),
    z.overwrite((bio) => bio.normalize('NFC').trim()),
  ),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/**
 * `POST /api/admin/approve-user`. `user_id` is the Threads user id the pending list gives: digits,
 * as Meta writes them; anything else names nobody, and a NUL answered 500 (issue 34).
 */
export const UserDecisionSchema = z.strictObject({
  user_id: z.string().check(z.regex(/^[0-9]{1,64}$/, 'must be a Threads user id (digits)')),
  action: z.optional(z.enum(['approve', 'reject'])),
});

/** The published profiles file the site build pre-renders `/{username}` pages from. */
export const PublishedProfilesSchema = z.array(
  z.extend(
    z.object({ username: z.string(), threads_username: z.string(), bio: z.string() }),
    ProfileCollectionsSchema.shape,
  ),
);

/** `POST /api/admin/approve-user`: the invite's new status. */
export const UserDecisionResultSchema = z.object({
  success: z.literal(true),
  status: z.enum(PROFILE_STATUSES),
});

/** `GET /api/admin/pending-users`: invite requests waiting, oldest first. */
export const PendingUsersSchema = z.object({ users: z.array(PendingUserSchema) });

/** `GET /api/user/profile/{username}`: the name in the path. */
export const PublicProfileParamsSchema = z.object({ username: z.string() });
