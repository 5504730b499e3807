import { z } from 'zod';

/** `/api/authors/me/posts/{id}/remove` and `/restore`: the post's id in the path. */
export const AuthorPostParamsSchema = z.object({ id: z.uuid('id must be a thread id') }).strict();
export type AuthorPostParams = z.infer<typeof AuthorPostParamsSchema>;
