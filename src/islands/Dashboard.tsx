import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { canSubmit, MEMBER_TEXTS } from '../../contract/membership.ts';
import type { PendingUser } from '../../contract/profile-rules.ts';
import type { ReviewThread } from '../../contract/review.ts';
import type { GeneratedPost } from '../../contract/submission.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { useHashTab } from '../lib/use-hash-tab.ts';
import { useSignedIn } from '../stores/auth.ts';
import { loadMembership, useMembership } from '../stores/membership.ts';
import InviteStatePanel from '../components/react/InviteStatePanel.tsx';
import LoadFailed from '../components/react/LoadFailed.tsx';
import { $reviewQueue, loadReviewQueue, pendingCount } from '../stores/review-queue.ts';
import GeneratedPosts from '../components/react/GeneratedPosts.tsx';
import MyThreads from '../components/react/MyThreads.tsx';
import PendingReview from '../components/react/PendingReview.tsx';
import PendingUsers from '../components/react/PendingUsers.tsx';
import TabList, { type TabItem } from '../components/react/TabList.tsx';
import '../styles/threads.css';
import '../styles/dashboard.css';

type TabId = 'own' | 'review' | 'manual' | 'users';

/** Each tab's URL hash (`/dashboard#pending-review`). */
const TAB_HASHES: Readonly<Record<TabId, string>> = {
  own: 'my-threads',
  review: 'pending-review',
  manual: 'manual-submissions',
  users: 'pending-users',
};
/** Admins use all four tabs; everyone else My Threads and Manual Submissions (decision 016). */
const ADMIN_TABS: readonly TabId[] = ['own', 'review', 'manual', 'users'];
const MEMBER_TABS: readonly TabId[] = ['own', 'manual'];
const TAB_LABELS: Readonly<Record<TabId, string>> = {
  own: 'My Threads',
  review: 'Pending Review',
  manual: 'Manual Submissions',
  users: 'Pending Users',
};

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

/**
 * The dashboard: the 'Logged in as' banner and the tabs this person can use, with counts, their lists
 * loaded at once. Admin lists are never asked for by non-admins, nor members' lists by non-members.
 */
export default function Dashboard() {
  const auth = useSignedIn('/');
  const signedIn = auth.status === 'authenticated';
  const membership = useMembership();
  const ready = membership.status === 'ready';
  const admin = ready && membership.membership.is_admin;
  const member = ready && canSubmit(membership.membership);
  const [tab, setTab] = useHashTab(TAB_HASHES, admin ? ADMIN_TABS : MEMBER_TABS, 'own');
  const [pendingUsers, setPendingUsers] = useState<PendingUser[]>([]);
  const own = useList<ReviewThread>('/api/user/threads', 'threads', signedIn);
  // The review queue pages itself (src/stores/review-queue.ts); the tab counts the whole queue.
  const review = useStore($reviewQueue);
  const manual = useList<GeneratedPost>('/api/dashboard/generated-posts', 'posts', member);

  useEffect(() => {
    if (!admin) return;
    void fetchPendingUsers().then(setPendingUsers);
    void loadReviewQueue();
  }, [admin]);

  if (auth.status !== 'authenticated' || membership.status === 'loading')
    return <p role="status">{TEXTS.loading}</p>;
  if (membership.status === 'error')
    return <LoadFailed title={MEMBER_TEXTS.membershipFailed} onRetry={() => void loadMembership(true)} />;

  const counts: Record<TabId, number> = {
    own: count(own.state),
    review: pendingCount(review),
    manual: count(manual.state),
    users: pendingUsers.length,
  };
  const tabs: TabItem<TabId>[] = (admin ? ADMIN_TABS : MEMBER_TABS).map((id) => ({
    id,
    label: TAB_LABELS[id],
    count: counts[id],
  }));
  const { profile_status: status } = membership.membership;

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
        {tab === 'manual' &&
          (member || status === 'approved' ? (
            <GeneratedPosts state={manual.state} onRetry={() => void manual.reload(true)} />
          ) : (
            <InviteStatePanel status={status} />
          ))}
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
