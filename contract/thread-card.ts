import { z } from 'zod';

/** Kind of a home card: text only, or carrying an image. */
export const ThreadTypeSchema = z.enum(['text', 'image']);

/**
 * A curated thread as the public home grid shows it (spec section 3, "Thread card (home)").
 * Likes and replies are null when unknown: the official API only reports them for a user's own posts.
 */
export const ThreadCardSchema = z
  .object({
    id: z.string().min(1),
    type: ThreadTypeSchema,
    author: z.string().min(1),
    handle: z.string().min(1),
    avatar: z.string().min(1),
    content: z.string(),
    image: z.string().min(1).nullable(),
    likes: z.number().int().nonnegative().nullable(),
    replies: z.number().int().nonnegative().nullable(),
    timestamp: z.iso.datetime({ offset: true }).optional(),
    permalink: z.url({ protocol: /^https$/ }).optional(),
    /** The post's Threads topic tag (without '#'), when it has one; it links to /topics/{slug}. */
    topic_tag: z.string().min(1).max(50).nullable().optional(),
  })
  .strict();

export const ThreadCardListSchema = z.array(ThreadCardSchema);

export type ThreadType = z.infer<typeof ThreadTypeSchema>;
export type ThreadCard = z.infer<typeof ThreadCardSchema>;
