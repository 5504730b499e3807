import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import type { PendingUser } from '../../contract/profile-rules.ts';
import type { ReviewThread } from '../../contract/review.ts';
import type { GeneratedPost } from '../../contract/submission.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { useSignedIn } from '../lib/use-signed-in.ts';
import { $reviewQueue, loadReviewQueue, pendingCount } from '../stores/review-queue.ts';
import ManualSubmissions from './ManualSubmissions.tsx';
import MyThreads from './MyThreads.tsx';
import PendingReview from './PendingReview.tsx';
import PendingUsers from './PendingUsers.tsx';
import TabList, { type TabItem } from './TabList.tsx';
import '../styles/threads.css';
import '../styles/dashboard.css';

type TabId = 'own' | 'review' | 'manual' | 'users';

/** A tab's list: loading, loaded (`denied`: the server answered 401/403, read as empty), or failed. */
export type ListState<T> =
  | { status: 'loading' }
  | { status: 'ready'; items: T[]; denied: boolean }
  | { status: 'error'; message: string };

/** Pending invite requests; 401/403 read as an empty list, so non-admins simply see none (spec). */
async function fetchPendingUsers(): Promise<PendingUser[]> {
  const list = await fetchList<PendingUser>('/api/admin/pending-users', 'users');
  if (list.status === 'error') console.error(TEXTS.pendingUsersFailed);
  return list.status === 'ready' ? list.items : [];
}

/** One list call: `field` of the answer; 401/403 give an empty, denied list; other failures a message. */
async function fetchList<T>(path: string, field: string): Promise<ListState<T>> {
  try {
    const body = await api<Record<string, T[] | undefined>>(path);
    return { status: 'ready', items: body[field] ?? [], denied: false };
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 403)) {
      return { status: 'ready', items: [], denied: true };
    }
    const message =
      error instanceof ApiRequestError
        ? (error.detail ?? error.message)
        : 'The server could not be reached. Check your connection.';
    return { status: 'error', message };
  }
}

/**
 * A tab's list, loaded once signed in. `reload(true)` shows 'Loading...' again (Try Again);
 * `reload(false)` keeps the current items until the new ones arrive (after a curation run).
 */
function useList<T extends { id: string }>(path: string, field: string, enabled: boolean) {
  const [state, setState] = useState<ListState<T>>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void fetchList<T>(path, field).then((next) => {
      if (current) setState(next);
    });
    return () => {
      current = false;
    };
  }, [path, field, enabled]);
  const reload = useCallback(
    async (showLoading: boolean) => {
      if (showLoading) setState({ status: 'loading' });
      setState(await fetchList<T>(path, field));
    },
    [path, field],
  );
  return { state, reload };
}

const count = (state: ListState<unknown>) => (state.status === 'ready' ? state.items.length : 0);

/** The dashboard: the 'Logged in as' banner and four tabs with counts, all lists loaded at once. */
export default function Dashboard() {
  const auth = useSignedIn('/');
  const signedIn = auth.status === 'authenticated';
  const [tab, setTab] = useState<TabId>('own');
  const [pendingUsers, setPendingUsers] = useState<PendingUser[]>([]);
  const own = useList<ReviewThread>('/api/user/threads', 'threads', signedIn);
  // The review queue pages itself (src/stores/review-queue.ts); the tab counts the whole queue.
  const review = useStore($reviewQueue);
  const manual = useList<GeneratedPost>('/api/dashboard/generated-posts', 'posts', signedIn);

  useEffect(() => {
    if (signedIn) void fetchPendingUsers().then(setPendingUsers);
    if (signedIn) void loadReviewQueue();
  }, [signedIn]);

  if (auth.status !== 'authenticated') return <p role="status">{TEXTS.loading}</p>;

  const tabs: TabItem<TabId>[] = [
    { id: 'own', label: 'My Threads', count: count(own.state) },
    { id: 'review', label: 'Pending Review', count: pendingCount(review) },
    { id: 'manual', label: 'Manual Submissions', count: count(manual.state) },
    { id: 'users', label: 'Pending Users', count: pendingUsers.length },
  ];

  return (
    <>
      <p className="status-banner">
        {TEXTS.loggedInAs} @{auth.user.username ?? auth.user.id}
      </p>
      <TabList<TabId> label="Dashboard sections" tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'own' && <MyThreads state={own.state} onRetry={() => void own.reload(true)} />}
        {tab === 'review' && (
          <PendingReview
            // Approving a manual submission queues a generated post.
            onSubmissionApproved={() => void manual.reload(false)}
            // A run adds approved members' own posts to My Threads (the queue reloads itself).
            onCurated={() => void own.reload(false)}
          />
        )}
        {tab === 'manual' && (
          <ManualSubmissions state={manual.state} onRetry={() => void manual.reload(true)} />
        )}
        {tab === 'users' && (
          <PendingUsers
            users={pendingUsers}
            onDecided={(id) => setPendingUsers((list) => list.filter((user) => user.user_id !== id))}
          />
        )}
      </TabList>
    </>
  );
}
