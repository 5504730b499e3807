import { map } from 'nanostores';
import type {
  BulkDecisionResult,
  ReviewQueryFacet,
  ReviewQueuePage,
  ReviewSort,
} from '../../contract/review-queue.ts';
import type { ReviewThread, ThreadSource } from '../../contract/review.ts';
import type { UndoDecisionResult } from '../../contract/review-undo.ts';
import { api, ApiRequestError, failureText, isDenied } from '../lib/api.ts';

export interface ReviewFilter {
  source: ThreadSource | null;
  query: string | null;
  sort: ReviewSort;
  /** Leave out authors rejected twice or more (decision 055). */
  hideRejectedAuthors: boolean;
  /** Fold threads of the same text, link or picture into one item. */
  groupDuplicates: boolean;
}

export interface ReviewQueueState {
  status: 'loading' | 'ready' | 'error';
  /** The server answered 401/403: not an admin, read as an empty queue (spec). */
  denied: boolean;
  threads: ReviewThread[];
  nextCursor: string | null;
  /** Pending threads matching the filter. */
  total: number;
  queries: ReviewQueryFacet[];
  sources: { source: ThreadSource; count: number }[];
  filter: ReviewFilter;
  more: 'idle' | 'loading' | 'error';
  error: string | null;
}

const INITIAL: ReviewQueueState = {
  status: 'loading',
  denied: false,
  threads: [],
  nextCursor: null,
  total: 0,
  queries: [],
  sources: [],
  filter: { source: null, query: null, sort: 'newest', hideRejectedAuthors: false, groupDuplicates: false },
  more: 'idle',
  error: null,
};

/** The admin's review queue: the pages loaded so far under one filter, and its counts. */
export const $reviewQueue = map<ReviewQueueState>(INITIAL);

/** Every pending thread, whatever the filter: what the dashboard's tab counts. */
export function pendingCount(state: ReviewQueueState): number {
  return state.sources.reduce((sum, facet) => sum + facet.count, 0);
}

function pagePath(filter: ReviewFilter, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filter.source) params.set('source', filter.source);
  if (filter.query) params.set('query', filter.query);
  if (filter.sort !== 'newest') params.set('sort', filter.sort);
  if (filter.hideRejectedAuthors) params.set('hide_rejected_authors', 'true');
  if (filter.groupDuplicates) params.set('group_duplicates', 'true');
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/api/threads/pending-review${query ? `?${query}` : ''}`;
}

// Answers to an older filter are dropped: only the newest first-page request may land.
let generation = 0;
// Threads decided while a first page was on its way: that answer predates the decision, so they are
// taken out of it again instead of coming back onto the list.
const decidedDuringLoad = new Set<string>();

/**
 * Loads the first page under `filter` (the current one when omitted). `quiet` keeps the shown cards
 * until the answer arrives (after a curation run); otherwise 'Loading...' shows.
 */
export async function loadReviewQueue(
  filter: Partial<ReviewFilter> = {},
  { quiet = false }: { quiet?: boolean } = {},
): Promise<void> {
  const next = { ...$reviewQueue.get().filter, ...filter };
  const mine = ++generation;
  decidedDuringLoad.clear();
  // The old cursor belongs to the old filter: no 'Load more' until the new first page is here.
  $reviewQueue.set({
    ...$reviewQueue.get(),
    filter: next,
    nextCursor: null,
    ...(quiet ? {} : { status: 'loading' }),
  });
  try {
    const page = await api<ReviewQueuePage>(pagePath(next, null));
    if (mine !== generation) return;
    $reviewQueue.set({
      ...INITIAL,
      status: 'ready',
      filter: next,
      threads: page.threads,
      nextCursor: page.next_cursor,
      total: page.total,
      queries: page.queries,
      sources: page.sources,
    });
    dropReviewed([...decidedDuringLoad]);
  } catch (error) {
    if (mine !== generation) return;
    if (isDenied(error)) {
      $reviewQueue.set({ ...INITIAL, status: 'ready', denied: true, filter: next });
      return;
    }
    $reviewQueue.set({ ...$reviewQueue.get(), status: 'error', error: failureText(error) });
  }
}

/** Appends the next page, keeping every card already shown. */
export async function loadMoreReviews(): Promise<void> {
  const state = $reviewQueue.get();
  if (state.status !== 'ready' || !state.nextCursor || state.more === 'loading') return;
  const mine = generation;
  $reviewQueue.setKey('more', 'loading');
  try {
    const page = await api<ReviewQueuePage>(pagePath(state.filter, state.nextCursor));
    if (mine !== generation) return;
    const current = $reviewQueue.get();
    const shown = new Set(current.threads.map((thread) => thread.id));
    $reviewQueue.set({
      ...current,
      threads: [...current.threads, ...page.threads.filter((thread) => !shown.has(thread.id))],
      nextCursor: page.next_cursor,
      total: page.total,
      queries: page.queries,
      sources: page.sources,
      more: 'idle',
    });
  } catch {
    if (mine === generation) $reviewQueue.setKey('more', 'error');
  }
}

/** Takes threads that are no longer pending out of the list and out of every count. */
export function dropReviewed(ids: readonly string[]): void {
  for (const id of ids) decidedDuringLoad.add(id);
  const state = $reviewQueue.get();
  const gone = state.threads.filter((thread) => ids.includes(thread.id));
  if (gone.length === 0) return;
  const bySource = (source: ThreadSource) => gone.filter((thread) => thread.source === source).length;
  const byQuery = (facet: ReviewQueryFacet) =>
    gone.filter((thread) => thread.source === facet.source && thread.query === facet.query).length;
  $reviewQueue.set({
    ...state,
    threads: state.threads.filter((thread) => !ids.includes(thread.id)),
    total: Math.max(0, state.total - gone.length),
    sources: state.sources.map((facet) => ({ ...facet, count: facet.count - bySource(facet.source) })),
    queries: state.queries.map((facet) => ({ ...facet, count: facet.count - byQuery(facet) })),
  });
}

export type DecisionOutcome = 'decided' | 'gone' | 'failed';

/**
 * Approves or rejects one thread. 'gone': someone decided it first (409) or it no longer exists
 * (404); it leaves the list either way. 'failed': it stays, to be tried again.
 */
export async function decideReview(
  threadId: string,
  action: 'approve' | 'reject',
  reason?: string,
): Promise<DecisionOutcome> {
  try {
    await api(`/api/threads/${action}`, {
      method: 'POST',
      body: reason ? { thread_id: threadId, reason } : { thread_id: threadId },
    });
    dropReviewed([threadId]);
    return 'decided';
  } catch (error) {
    console.error(action === 'approve' ? 'Failed to approve thread' : 'Failed to reject thread', error);
    if (error instanceof ApiRequestError && (error.status === 409 || error.status === 404)) {
      dropReviewed([threadId]);
      return 'gone';
    }
    return 'failed';
  }
}

/** Approves or rejects several threads in one call (one transaction on the server). */
export async function decideReviews(
  threadIds: readonly string[],
  action: 'approve' | 'reject',
  reason?: string,
): Promise<BulkDecisionResult | string> {
  try {
    const result = await api<BulkDecisionResult>('/api/threads/decide-many', {
      method: 'POST',
      body: { thread_ids: threadIds, action, ...(reason ? { reason } : {}) },
    });
    dropReviewed([...result.decided, ...result.already_decided.map((item) => item.thread_id)]);
    return result;
  } catch (error) {
    console.error(action === 'approve' ? 'Failed to approve threads' : 'Failed to reject threads', error);
    return failureText(error);
  }
}

/**
 * Takes back the caller's own recent decisions on these threads (all or none, decision 047) and
 * reloads the first page quietly so they are back in their place. True when done, else why not.
 */
export async function undoDecisions(threadIds: readonly string[]): Promise<true | string> {
  try {
    await api<UndoDecisionResult>('/api/threads/undo', { method: 'POST', body: { thread_ids: threadIds } });
  } catch (error) {
    console.error('Failed to undo the decision', error);
    return failureText(error);
  }
  await loadReviewQueue({}, { quiet: true });
  return true;
}
