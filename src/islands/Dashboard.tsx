import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { canSubmit, MEMBER_TEXTS } from '../../contract/membership.ts';
import { DIGEST_DESK_TEXTS } from '../../contract/digest-desk.ts';
import { TEXTS } from '../../contract/texts.ts';
import { useHashTab } from '../lib/use-hash-tab.ts';
import { useSignedIn } from '../stores/auth.ts';
import {
  $generatedPosts,
  $ownThreads,
  $pendingUsers,
  loadedItems,
  loadCurationAccount,
  loadGeneratedPosts,
  loadOwnSubmissions,
  loadOwnThreads,
  loadLastCurationRun,
  loadPendingUsers,
} from '../stores/dashboard.ts';
import { loadMembership, useMembership } from '../stores/membership.ts';
import { $reviewQueue, loadReviewQueue, pendingCount } from '../stores/review-queue.ts';
import CurationAccount from '../components/react/CurationAccount.tsx';
import DigestDesk from '../components/react/DigestDesk.tsx';
import GeneratedPosts from '../components/react/GeneratedPosts.tsx';
import InviteStatePanel from '../components/react/InviteStatePanel.tsx';
import LoadFailed from '../components/react/LoadFailed.tsx';
import MyThreads from '../components/react/MyThreads.tsx';
import PendingReview from '../components/react/PendingReview.tsx';
import PendingUsers from '../components/react/PendingUsers.tsx';
import TabList, { type TabItem } from '../components/react/TabList.tsx';
import '../styles/threads.css';
import '../styles/dashboard.css';

type TabId = 'own' | 'review' | 'manual' | 'users' | 'digest';

/** Each tab's URL hash (`/dashboard#pending-review`). */
const TAB_HASHES: Readonly<Record<TabId, string>> = {
  own: 'my-threads',
  review: 'pending-review',
  manual: 'manual-submissions',
  users: 'pending-users',
  digest: 'digest',
};
/** Admins use every tab; everyone else My Threads and Manual Submissions (decision 016). */
const ADMIN_TABS: readonly TabId[] = ['own', 'review', 'manual', 'users', 'digest'];
const MEMBER_TABS: readonly TabId[] = ['own', 'manual'];
const TAB_LABELS: Readonly<Record<TabId, string>> = {
  own: 'My Threads',
  review: 'Pending Review',
  manual: 'Manual Submissions',
  users: 'Pending Users',
  digest: DIGEST_DESK_TEXTS.tab,
};

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
  // Admins come for the queue: Pending Review is where their dashboard opens (issue 20).
  const [tab, setTab] = useHashTab(TAB_HASHES, admin ? ADMIN_TABS : MEMBER_TABS, admin ? 'review' : 'own');
  const own = useStore($ownThreads);
  // The review queue pages itself (src/stores/review-queue.ts); the tab counts the whole queue.
  const review = useStore($reviewQueue);
  const posts = useStore($generatedPosts);
  const pendingUsers = useStore($pendingUsers);

  useEffect(() => {
    if (signedIn) void loadOwnThreads();
  }, [signedIn]);
  useEffect(() => {
    if (!member) return;
    void loadGeneratedPosts();
    // Only to say how many wait for review: the tab lists the posts made from approved ones.
    void loadOwnSubmissions();
  }, [member]);
  useEffect(() => {
    if (!admin) return;
    void loadPendingUsers();
    void loadReviewQueue();
    void loadCurationAccount();
    // Loaded once here, not by the Pending Review tab: switching back to it must not load it again.
    void loadLastCurationRun();
  }, [admin]);

  if (auth.status !== 'authenticated' || membership.status === 'loading')
    return <p role="status">{TEXTS.loading}</p>;
  if (membership.status === 'error')
    return <LoadFailed title={MEMBER_TEXTS.membershipFailed} onRetry={() => void loadMembership(true)} />;

  // The Digest tab loads its draft when opened: it has no count to show before that.
  const counts: Record<TabId, number | undefined> = {
    own: loadedItems(own).length,
    review: pendingCount(review),
    manual: loadedItems(posts).length,
    users: loadedItems(pendingUsers).length,
    digest: undefined,
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
      {admin && <CurationAccount />}
      <TabList<TabId> label="Dashboard sections" tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'own' && <MyThreads />}
        {tab === 'review' && <PendingReview />}
        {tab === 'manual' &&
          (member || status === 'approved' ? <GeneratedPosts /> : <InviteStatePanel status={status} />)}
        {tab === 'users' && <PendingUsers />}
        {tab === 'digest' && <DigestDesk />}
      </TabList>
    </>
  );
}
