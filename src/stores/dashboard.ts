import { atom, type WritableAtom } from 'nanostores';
import type { PendingUser } from '../../contract/profile-rules.ts';
import type { CurationRunSummary, ReviewThread } from '../../contract/review.ts';
import type { GeneratedPost } from '../../contract/submission.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, failureText, isDenied } from '../lib/api.ts';
import { loadReviewQueue } from './review-queue.ts';

/** Something the dashboard loads: 'Loading...', the answer, or why it failed. */
export type LoadState<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; message: string };

const LOADING = { status: 'loading' } as const;

/** My Threads: the member's own threads as curation collected them. */
export const $ownThreads = atom<LoadState<ReviewThread[]>>(LOADING);
/** Manual Submissions: the posts generated from the member's approved submissions. */
export const $generatedPosts = atom<LoadState<GeneratedPost[]>>(LOADING);
/** Pending Users (admins): the invite requests waiting for a decision. */
export const $pendingUsers = atom<LoadState<PendingUser[]>>(LOADING);
/** The newest curation run (null: none yet), as loaded or as a run started here returned it. */
export const $lastCurationRun = atom<LoadState<CurationRunSummary | null>>(LOADING);

/** A loaded list's items; none while it loads or after it failed. */
export function loadedItems<T>(state: LoadState<T[]>): T[] {
  return state.status === 'ready' ? state.data : [];
}

// Answers to an older request for the same atom are dropped: only the newest may land.
const generations = new WeakMap<object, number>();

function nextGeneration(store: object): () => boolean {
  const mine = (generations.get(store) ?? 0) + 1;
  generations.set(store, mine);
  return () => generations.get(store) === mine;
}

/**
 * Loads `field` of `path` into `store`; 401/403 read as an empty list (spec), other failures keep
 * the reason. `quiet` keeps the shown items until the answer arrives; otherwise 'Loading...' shows.
 */
async function loadList<T>(
  store: WritableAtom<LoadState<T[]>>,
  path: string,
  field: string,
  quiet: boolean,
): Promise<LoadState<T[]>> {
  const latest = nextGeneration(store);
  if (!quiet) store.set(LOADING);
  let next: LoadState<T[]>;
  try {
    const body = await api<Record<string, T[] | undefined>>(path);
    next = { status: 'ready', data: body[field] ?? [] };
  } catch (error) {
    next = isDenied(error) ? { status: 'ready', data: [] } : { status: 'error', message: failureText(error) };
  }
  if (latest()) store.set(next);
  return next;
}

/** Loads My Threads (`quiet`: after a curation run, the shown cards stay until the new ones arrive). */
export async function loadOwnThreads({ quiet = false }: { quiet?: boolean } = {}): Promise<void> {
  await loadList($ownThreads, '/api/user/threads', 'threads', quiet);
}

/** Loads the generated posts (`quiet`: after an approved submission queued one). */
export async function loadGeneratedPosts({ quiet = false }: { quiet?: boolean } = {}): Promise<void> {
  await loadList($generatedPosts, '/api/dashboard/generated-posts', 'posts', quiet);
}

/** Loads the pending invite requests; non-admins simply see none (spec). */
export async function loadPendingUsers(): Promise<void> {
  const state = await loadList($pendingUsers, '/api/admin/pending-users', 'users', false);
  if (state.status === 'error') console.error(TEXTS.pendingUsersFailed);
}

/** Approves or rejects an invite request, which then leaves the list; throws when that failed. */
export async function decidePendingUser(userId: string, action: 'approve' | 'reject'): Promise<void> {
  await api('/api/admin/approve-user', {
    method: 'POST',
    body: action === 'reject' ? { user_id: userId, action } : { user_id: userId },
  });
  const state = $pendingUsers.get();
  if (state.status !== 'ready') return;
  $pendingUsers.set({ status: 'ready', data: state.data.filter((user) => user.user_id !== userId) });
}

/** Loads the newest curation run, showing 'Loading...' meanwhile. */
export async function loadLastCurationRun(): Promise<void> {
  const latest = nextGeneration($lastCurationRun);
  $lastCurationRun.set(LOADING);
  try {
    const { runs } = await api<{ runs: CurationRunSummary[] }>('/api/admin/runs');
    if (latest()) $lastCurationRun.set({ status: 'ready', data: runs[0] ?? null });
  } catch (error) {
    if (latest()) $lastCurationRun.set({ status: 'error', message: failureText(error) });
  }
}

/**
 * Runs curation at once and shows the run; the review queue and My Threads then reload quietly,
 * as a run may add threads to both. Throws when the run could not be done.
 */
export async function runCuration(): Promise<CurationRunSummary> {
  const { run } = await api<{ run: CurationRunSummary }>('/api/admin/refresh', { method: 'POST' });
  nextGeneration($lastCurationRun);
  $lastCurationRun.set({ status: 'ready', data: run });
  void loadReviewQueue({}, { quiet: true });
  void loadOwnThreads({ quiet: true });
  return run;
}
