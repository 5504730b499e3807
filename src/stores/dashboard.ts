import { atom, type WritableAtom } from 'nanostores';
import type { CuratorStatus } from '../../contract/auth.ts';
import type { PendingUser } from '../../contract/profile-rules.ts';
import type { CurationRunSummary, ReviewThread } from '../../contract/review.ts';
import type { GeneratedPost, ManualSubmission } from '../../contract/submission.ts';
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
/** The member's own submissions (the Submit page's list): the Manual Submissions tab counts the waiting ones. */
export const $ownSubmissions = atom<LoadState<ManualSubmission[]>>(LOADING);
/** Pending Users (admins): the invite requests waiting for a decision. */
export const $pendingUsers = atom<LoadState<PendingUser[]>>(LOADING);
/** The newest curation run (null: none yet), as loaded or as a run started here returned it. */
export const $lastCurationRun = atom<LoadState<CurationRunSummary | null>>(LOADING);

/** The curation account (admins): who is connected, which permissions are granted and missing. */
export const $curationAccount = atom<LoadState<CuratorStatus>>(LOADING);

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
 * Loads what `fetch` answers into `store`; a failure keeps its reason, or with `whenDenied` a 401/403
 * reads as that (the spec's empty list). `quiet` keeps what is shown until the answer arrives;
 * otherwise 'Loading...' shows.
 */
async function loadInto<T>(
  store: WritableAtom<LoadState<T>>,
  fetch: () => Promise<T>,
  { quiet, whenDenied }: { quiet: boolean; whenDenied?: T },
): Promise<LoadState<T>> {
  const latest = nextGeneration(store);
  if (!quiet) store.set(LOADING);
  let next: LoadState<T>;
  try {
    next = { status: 'ready', data: await fetch() };
  } catch (error) {
    next =
      whenDenied !== undefined && isDenied(error)
        ? { status: 'ready', data: whenDenied }
        : { status: 'error', message: failureText(error) };
  }
  if (latest()) store.set(next);
  return next;
}

/** Loads the list in `field` of `path` into `store` (see loadInto); signed-out or not allowed: none. */
function loadList<T>(
  store: WritableAtom<LoadState<T[]>>,
  path: string,
  field: string,
  quiet: boolean,
): Promise<LoadState<T[]>> {
  const fetchList = async () => (await api<Record<string, T[] | undefined>>(path))[field] ?? [];
  return loadInto(store, fetchList, { quiet, whenDenied: [] });
}

/** Loads My Threads (`quiet`: after a curation run, the shown cards stay until the new ones arrive). */
export async function loadOwnThreads({ quiet = false }: { quiet?: boolean } = {}): Promise<void> {
  await loadList($ownThreads, '/api/user/threads', 'threads', quiet);
}

/** Loads the generated posts (`quiet`: after an approved submission queued one). */
export async function loadGeneratedPosts({ quiet = false }: { quiet?: boolean } = {}): Promise<void> {
  await loadList($generatedPosts, '/api/dashboard/generated-posts', 'posts', quiet);
}

/** Loads the member's own submissions (a failure or a refusal: none, the tab still shows its posts). */
export async function loadOwnSubmissions(): Promise<void> {
  await loadList($ownSubmissions, '/api/dashboard/manual-submissions', 'submissions', false);
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

/** Loads the curation account's state, showing 'Loading...' meanwhile. */
export async function loadCurationAccount(): Promise<void> {
  await loadInto($curationAccount, () => api<CuratorStatus>('/api/admin/curator'), { quiet: false });
}

/** Loads the newest curation run, showing 'Loading...' meanwhile. */
export async function loadLastCurationRun(): Promise<void> {
  const newest = async () => (await api<{ runs: CurationRunSummary[] }>('/api/admin/runs')).runs[0] ?? null;
  await loadInto($lastCurationRun, newest, { quiet: false });
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
