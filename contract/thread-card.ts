import { PostDisplaySchema } from './threads-embed.ts';
import { z } from './zod.ts';

/** Kind of a home card: text only, or carrying an image. */
export const ThreadTypeSchema = z.enum(['text', 'image']);

const word = () => z.string().check(z.minLength(1));
const count = () => z.nullable(z.int().check(z.nonnegative()));

/**
 * A curated thread as the public home grid shows it (spec section 3, "Thread card (home)").
 * Likes and replies are null when unknown: the official API only reports them for a user's own posts.
 */
export const ThreadCardSchema = z.strictObject({
  id: word(),
  type: ThreadTypeSchema,
  author: word(),
  handle: word(),
  avatar: word(),
  content: z.string(),
  image: z.nullable(word()),
  likes: count(),
  replies: count(),
  timestamp: z.optional(z.iso.datetime({ offset: true })),
  permalink: z.optional(z.url({ protocol: /^https$/ })),
  /** The post's Threads topic tag (without '#'), when it has one; it links to /topics/{slug}. */
  topic_tag: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(50)))),
  /**
   * 'embed' (decision 070): shown through Threads' embed; the card then carries no copy of the post
   * (content '', no image, no counts) and its author is the handle in the permalink. Absent: 'card'.
   */
  display: z.optional(PostDisplaySchema),
});

export const ThreadCardListSchema = z.array(ThreadCardSchema);

export type ThreadType = z.infer<typeof ThreadTypeSchema>;
export type ThreadCard = z.infer<typeof ThreadCardSchema>;
