import { type PendingUser, threadsProfileUrl } from '../../contract/profile-rules.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import DateTime from './DateTime.tsx';

interface Props {
  users: readonly PendingUser[];
  /** Called after a decision, with the user to drop from the list. */
  onDecided(userId: string): void;
}

async function decide(user: PendingUser, action: 'approve' | 'reject', onDecided: (id: string) => void) {
  if (action === 'reject' && !window.confirm(TEXTS.rejectUserConfirm)) return;
  try {
    await api('/api/admin/approve-user', {
      method: 'POST',
      body: action === 'reject' ? { user_id: user.user_id, action } : { user_id: user.user_id },
    });
    window.alert(action === 'reject' ? TEXTS.userRejected : TEXTS.userApproved);
    onDecided(user.user_id);
  } catch (error) {
    const fallback = action === 'reject' ? TEXTS.userRejectFailed : TEXTS.userApproveFailed;
    window.alert((error instanceof ApiRequestError && error.detail) || fallback);
  }
}

/** The Pending Users tab: each request with Approve User, Reject (after a confirmation) and View Profile. */
export default function PendingUsers({ users, onDecided }: Props) {
  if (users.length === 0) return <p>{TEXTS.noPendingUsers}</p>;
  return (
    <ul className="pending-users">
      {users.map((user) => (
        <li key={user.user_id} className="panel pending-user">
          <h3>@{user.threads_username}</h3>
          <p className="field-help">
            Requested <DateTime iso={user.requested_at} />
          </p>
          <dl className="profile-facts">
            <dt>Display username</dt>
            <dd>{user.display_username ?? '—'}</dd>
            <dt>Bio</dt>
            <dd className="profile-facts__bio">{user.bio || '—'}</dd>
          </dl>
          <div className="form-actions">
            <button type="button" className="button" onClick={() => void decide(user, 'approve', onDecided)}>
              {TEXTS.approveUser}
            </button>
            <button
              type="button"
              className="button button--quiet"
              onClick={() => void decide(user, 'reject', onDecided)}
            >
              {TEXTS.reject}
            </button>
            <a
              className="button button--quiet"
              href={threadsProfileUrl(user.threads_username)}
              rel="noopener noreferrer"
            >
              {TEXTS.viewProfile}
            </a>
          </div>
        </li>
      ))}
    </ul>
  );
}
