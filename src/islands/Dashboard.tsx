import { useEffect, useState } from 'react';
import type { PendingUser } from '../../contract/profile-rules.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { useSignedIn } from '../lib/use-signed-in.ts';
import PendingUsers from './PendingUsers.tsx';
import TabList, { type TabItem } from './TabList.tsx';

type TabId = 'own' | 'review' | 'manual' | 'users';

/** Pending invite requests; 401/403 read as an empty list, so non-admins simply see none (spec). */
async function fetchPendingUsers(): Promise<PendingUser[]> {
  try {
    return (await api<{ users: PendingUser[] }>('/api/admin/pending-users')).users;
  } catch (error) {
    if (!(error instanceof ApiRequestError && (error.status === 401 || error.status === 403))) {
      console.error(TEXTS.pendingUsersFailed);
    }
    return [];
  }
}

/** The dashboard: the 'Logged in as' banner and four tabs with counts. */
export default function Dashboard() {
  const auth = useSignedIn('/');
  const [tab, setTab] = useState<TabId>('own');
  const [pendingUsers, setPendingUsers] = useState<PendingUser[]>([]);

  useEffect(() => {
    if (auth.status === 'authenticated') void fetchPendingUsers().then(setPendingUsers);
  }, [auth.status]);

  if (auth.status !== 'authenticated') return <p role="status">{TEXTS.loading}</p>;

  // My Threads, Pending Review and Manual Submissions are filled by the curation work.
  const tabs: TabItem<TabId>[] = [
    { id: 'own', label: 'My Threads', count: 0 },
    { id: 'review', label: 'Pending Review', count: 0 },
    { id: 'manual', label: 'Manual Submissions', count: 0 },
    { id: 'users', label: 'Pending Users', count: pendingUsers.length },
  ];
  const emptyTexts: Record<Exclude<TabId, 'users'>, string> = {
    own: TEXTS.noOwnThreads,
    review: TEXTS.noPendingReview,
    manual: TEXTS.noManualSubmissions,
  };

  return (
    <>
      <p className="status-banner">
        {TEXTS.loggedInAs} @{auth.user.username ?? auth.user.id}
      </p>
      <TabList<TabId> label="Dashboard sections" tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'users' ? (
          <PendingUsers
            users={pendingUsers}
            onDecided={(id) => setPendingUsers((list) => list.filter((user) => user.user_id !== id))}
          />
        ) : (
          <p>{emptyTexts[tab]}</p>
        )}
      </TabList>
    </>
  );
}
