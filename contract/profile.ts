import { z } from 'zod';
import { ProfileCollectionsSchema } from './gem-schemas.ts';
import { bioProblem, displayUsernameProblem } from './profile-rules.ts';

export * from './profile-rules.ts';

/** `PUT /api/user/profile`: only these two fields; anything else is refused. */
export const ProfileUpdateSchema = z
  .object({
    display_username: z
      .string()
      .max(200)
      .superRefine((name, ctx) => {
        const problem = displayUsernameProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    bio: z
      .string()
      .max(4000)
      .superRefine((bio, ctx) => {
        const problem = bioProblem(bio);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .transform((bio) => bio.normalize('NFC').trim()),
  })
  .strict();
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/** `POST /api/admin/approve-user`. */
export const UserDecisionSchema = z
  .object({ user_id: z.string().min(1).max(64), action: z.enum(['approve', 'reject']).optional() })
  .strict();

/** The published profiles file the site build pre-renders `/{username}` pages from. */
export const PublishedProfilesSchema = z.array(
  z.object({
    username: z.string(),
    threads_username: z.string(),
    bio: z.string(),
    ...ProfileCollectionsSchema.shape,
  }),
);
