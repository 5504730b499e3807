import { ReviewThreadSchema, ThreadSourceSchema } from './review.ts';
import { z } from './zod.ts';

/** Cards per page of the review queue (decision 013). */
export const REVIEW_PAGE_SIZE = 25;
/** Most threads one bulk decision may carry. */
export const BULK_DECISION_MAX = 50;

export const REVIEW_SOURCES = ['user_own', 'public_search', 'public_tag', 'manual_submission'] as const;
export const REVIEW_SORTS = ['newest', 'likes', 'score'] as const;
/** The order by score ranks this many of the newest matching threads (decision 055). */
export const SCORE_WINDOW = 500;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

/** A keyword or tag that found pending threads, with how many are waiting. */
export const ReviewQueryFacetSchema = z.object({
  source: ThreadSourceSchema,
  query: z.string(),
  count: z.int(),
});
export type ReviewQueryFacet = z.infer<typeof ReviewQueryFacetSchema>;

/** One page of the review queue. `total` counts every pending thread that matches the filters. */
export const ReviewQueuePageSchema = z.object({
  threads: z.array(ReviewThreadSchema),
  next_cursor: z.nullable(z.string()),
  total: z.int(),
  /** Every keyword and tag with pending threads (not narrowed by the filters), most waiting first. */
  queries: z.array(ReviewQueryFacetSchema),
  /** Pending threads per source (not narrowed by the filters): their sum is the whole queue. */
  sources: z.array(z.object({ source: ThreadSourceSchema, count: z.int() })),
});
export type ReviewQueuePage = z.infer<typeof ReviewQueuePageSchema>;

/** What a bulk decision did: the ids it decided, and those someone had decided before (with how). */
export const BulkDecisionResultSchema = z.object({
  decided: z.array(z.string()),
  already_decided: z.array(z.object({ thread_id: z.string(), status: z.string() })),
});
export type BulkDecisionResult = z.infer<typeof BulkDecisionResultSchema>;

/** The review queue's own texts (the spec's alert texts stay in texts.ts). */
export const REVIEW_QUEUE_TEXTS = {
  loadMore: 'Load more threads',
  loadingMore: 'Loading more threads...',
  loadMoreFailed: 'Could not load more threads. Try again.',
  filtersLabel: 'Filter the review queue',
  sourceLabel: 'Source',
  queryLabel: 'Keyword or tag',
  sortLabel: 'Order',
  allSources: 'All sources',
  allQueries: 'All keywords and tags',
  newest: 'Newest first',
  mostLiked: 'Most liked first',
  reasonLegend: 'Why reject?',
  noReason: 'No reason',
  otherReason: 'Other reason',
  ownReason: 'Your reason',
  // A rejection's reason is public (decision 014): the admin should know before writing one.
  reasonPublished: 'The reason is published with the post on the public moderation log.',
  confirmReject: 'Reject',
  cancel: 'Cancel',
  select: 'Select',
  approveSelected: 'Approve selected',
  rejectSelected: 'Reject selected',
  clearSelection: 'Clear selection',
  selectAll: 'Select all shown',
  shortcuts: 'Keyboard shortcuts',
  closeShortcuts: 'Close',
  alreadyDecided: 'Another admin decided this thread first; it left the queue.',
} as const;

/** The keys of the review queue (decision 013), in the order the help panel lists them. */
export const REVIEW_KEYS: readonly { keys: string; does: string }[] = [
  { keys: 'j', does: 'Next thread' },
  { keys: 'k', does: 'Previous thread' },
  { keys: 'a', does: 'Approve the focused thread' },
  { keys: 'r', does: 'Reject the focused thread (choose a reason, Enter confirms, Escape cancels)' },
  { keys: 'x', does: 'Select or unselect the focused thread' },
  { keys: 'u', does: 'Undo the last decision while its Undo shows' },
  { keys: '?', does: 'Show or hide this list' },
];

/** "3 of 140 threads shown". */
export const shownOf = (shown: number, total: number) =>
  `${shown} of ${total} ${total === 1 ? 'thread' : 'threads'} shown`;

/** "12 selected". */
export const selectedCount = (count: number) => `${count} selected`;

/** The live region's message after a bulk decision. */
export function bulkDoneMessage(action: 'approve' | 'reject', result: BulkDecisionResult): string {
  const n = result.decided.length;
  const done = `${n} ${n === 1 ? 'thread' : 'threads'} ${action === 'approve' ? 'approved' : 'rejected'}.`;
  const skipped = result.already_decided.length;
  return skipped ? `${done} ${skipped} had already been decided.` : done;
}
