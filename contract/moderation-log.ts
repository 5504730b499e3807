import { z } from './zod.ts';

/** Decisions per page of `GET /api/moderation`. */
export const MODERATION_LOG_PAGE_SIZE = 25;
/** Longest excerpt of a post's text the log shows, in characters (the rest stays on Threads). */
export const MODERATION_EXCERPT_MAX = 160;

/** A decision the public log lists. Threads hidden at the source after approval are not listed (decision 014). */
export const ModerationDecisionSchema = z.enum(['approved', 'rejected']);
export type ModerationDecision = z.infer<typeof ModerationDecisionSchema>;

/**
 * One entry of the public moderation log: what was decided, how, when and why. Deliberately no member
 * data: not who submitted it, not which admin decided, no notes, no user ids, no source.
 */
export const ModerationLogEntrySchema = z.object({
  /** The thread's id (a key for the list; the public catalogue uses the same ids). */
  id: z.string(),
  permalink: z.string(),
  /** '@name', or null when a submitted link did not name its author. */
  handle: z.nullable(z.string()),
  /** The start of the post's text, or null when we hold none (someone else's submitted post). */
  excerpt: z.nullable(z.string()),
  topic_tag: z.nullable(z.string()),
  decision: ModerationDecisionSchema,
  decided_at: z.string(),
  /** Why it was rejected, when the admin said; always null for an approval. */
  reason: z.nullable(z.string()),
});
export type ModerationLogEntry = z.infer<typeof ModerationLogEntrySchema>;

/** `GET /api/moderation?cursor=`: newest decision first; `next_cursor` is null on the last page. */
export const ModerationLogPageSchema = z.object({
  entries: z.array(ModerationLogEntrySchema),
  next_cursor: z.nullable(z.string()),
});
export type ModerationLogPage = z.infer<typeof ModerationLogPageSchema>;

/** A cursor this server did not give (or a second one). */
export const BAD_MODERATION_CURSOR =
  'This cursor is not valid. Start again from the first page of the moderation log.';

/** `GET /api/moderation` query: the opaque cursor of the next page. */
export const ModerationLogQuerySchema = z.object({
  cursor: z.optional(z.string({ error: BAD_MODERATION_CURSOR })),
});

/** The moderation log's and the member's decision texts (issue 10). */
export const MODERATION_TEXTS = {
  title: 'Moderation log',
  description:
    'Every thread decision on Curated Threads, newest first: which post, approved or rejected, when, and why.',
  intro:
    'Every review decision, newest first: the post, the decision, when it was made and, for a rejection, the reason the admin gave. Who submitted a post and who decided it are never shown.',
  empty: 'No decisions yet.',
  loadFailed: 'The moderation log could not be loaded.',
  loadMore: 'Load more',
  loadingMore: 'Loading more...',
  reason: 'Reason:',
  noReason: 'No reason given.',
  approved: 'Approved',
  rejected: 'Rejected',
  decided: 'Decided',
  footerLink: 'Moderation log',
} as const;
