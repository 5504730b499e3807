import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { type PendingUser, threadsProfileUrl } from '../../../contract/profile-rules.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { detailOr } from '../../lib/api.ts';
import { $pendingUsers, decidePendingUser, loadedItems } from '../../stores/dashboard.ts';
import DateTime from './DateTime.tsx';
import LiveAlert, { useAnnouncement } from './LiveAlert.tsx';
import '../../styles/review.css';

/** The question before a rejection, asked beside the buttons instead of in a window.confirm (decision 013). */
function ConfirmReject({ onConfirm, onCancel }: { onConfirm(): void; onCancel(): void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancel();
  };
  return (
    <div className="confirm-reject" role="group" aria-label="Confirm rejection">
      <p>{TEXTS.rejectUserConfirm}</p>
      <div className="form-actions">
        <button type="button" className="button" onClick={onConfirm} onKeyDown={escape}>
          {TEXTS.reject}
        </button>
        <button
          ref={cancel}
          type="button"
          className="button button--quiet"
          onClick={onCancel}
          onKeyDown={escape}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The Pending Users tab: each request with Approve User, Reject (after a confirmation) and View Profile. */
export default function PendingUsers() {
  // Empty until the requests are loaded; a failed load is logged and empties the list (spec).
  const users = loadedItems(useStore($pendingUsers));
  const { announcement, announce } = useAnnouncement();
  const [confirming, setConfirming] = useState<string | null>(null);
  // Requests with a decision on its way: their buttons are disabled, so a double click sends one.
  const [deciding, setDeciding] = useState<ReadonlySet<string>>(new Set());
  const inFlight = useRef(new Set<string>());
  // A closed confirmation gives the focus back to the Reject button that opened it.
  const rejectButtons = useRef(new Map<string, HTMLButtonElement>());
  const refocus = useRef<string | null>(null);
  useEffect(() => {
    if (confirming !== null || !refocus.current) return;
    rejectButtons.current.get(refocus.current)?.focus();
    refocus.current = null;
  }, [confirming]);
  // A decided request leaves the list with the button that had the focus: the next request's
  // Approve User takes it (the one before when it was the last), or the empty list's line.
  const approveButtons = useRef(new Map<string, HTMLButtonElement>());
  const emptyLine = useRef<HTMLParagraphElement>(null);
  const focusAfter = useRef<{ id: string; index: number } | null>(null);
  useEffect(() => {
    const decided = focusAfter.current;
    if (!decided || users.some((user) => user.user_id === decided.id)) return;
    focusAfter.current = null;
    // Only a focus lost with the decided request's button: an admin who moved on keeps their place.
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const next = users[Math.min(decided.index, users.length - 1)];
    (next ? approveButtons.current.get(next.user_id) : emptyLine.current)?.focus();
  }, [users]);

  const decide = async (user: PendingUser, action: 'approve' | 'reject') => {
    if (action === 'reject') refocus.current = user.user_id;
    setConfirming(null);
    if (inFlight.current.has(user.user_id)) return;
    inFlight.current.add(user.user_id);
    setDeciding(new Set(inFlight.current));
    try {
      // Set before the store drops the request, so the effect above sees the shorter list.
      const index = users.findIndex((each) => each.user_id === user.user_id);
      focusAfter.current = { id: user.user_id, index };
      await decidePendingUser(user.user_id, action);
      announce(action === 'reject' ? TEXTS.userRejected : TEXTS.userApproved);
    } catch (error) {
      // Another decision made meanwhile keeps its own hand-off.
      if (focusAfter.current?.id === user.user_id) focusAfter.current = null;
      const fallback = action === 'reject' ? TEXTS.userRejectFailed : TEXTS.userApproveFailed;
      announce(detailOr(error, fallback), 'error');
    } finally {
      inFlight.current.delete(user.user_id);
      setDeciding(new Set(inFlight.current));
    }
  };

  return (
    <>
      <LiveAlert announcement={announcement} />
      {users.length === 0 ? (
        <p ref={emptyLine} tabIndex={-1}>
          {TEXTS.noPendingUsers}
        </p>
      ) : (
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
              {confirming === user.user_id ? (
                <ConfirmReject
                  onConfirm={() => void decide(user, 'reject')}
                  onCancel={() => {
                    refocus.current = user.user_id;
                    setConfirming(null);
                  }}
                />
              ) : (
                <div className="form-actions">
                  <button
                    type="button"
                    className="button"
                    ref={(button) => {
                      if (button) approveButtons.current.set(user.user_id, button);
                      else approveButtons.current.delete(user.user_id);
                    }}
                    // Not disabled while deciding (that would drop the focus): a second press is ignored.
                    aria-disabled={deciding.has(user.user_id)}
                    onClick={() => void decide(user, 'approve')}
                  >
                    {TEXTS.approveUser}
                  </button>
                  <button
                    type="button"
                    className="button button--quiet"
                    ref={(button) => {
                      if (button) rejectButtons.current.set(user.user_id, button);
                      else rejectButtons.current.delete(user.user_id);
                    }}
                    aria-disabled={deciding.has(user.user_id)}
                    onClick={() => {
                      if (!inFlight.current.has(user.user_id)) setConfirming(user.user_id);
                    }}
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
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
