import { useEffect, useRef, useState } from 'react';
import { MEMBER_TEXTS } from '../../contract/membership.ts';
import type { OwnProfile } from '../../contract/profile-rules.ts';
import { PROFILE_STATUS_LABELS, TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { useSignedIn } from '../stores/auth.ts';
import LoadFailed from '../components/react/LoadFailed.tsx';
import NoticeMailSettings from '../components/react/NoticeMailSettings.tsx';
import ProfileEditForm from '../components/react/ProfileEditForm.tsx';
import ProfileTabs from '../components/react/ProfileTabs.tsx';
import '../styles/members.css';

type Load = { phase: 'loading' } | { phase: 'error' } | { phase: 'ready'; profile: OwnProfile };

/** Loads the own profile; no profile (404) means no invite yet: the request page takes over. */
async function loadProfile(): Promise<Load> {
  try {
    return { phase: 'ready', profile: await api<OwnProfile>('/api/user/profile') };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) {
      window.location.replace('/request-invite');
      return { phase: 'loading' };
    }
    return { phase: 'error' };
  }
}

/** 'My Profile' (spec: Profile): status, the live page, editing for approved members, gems and threads. */
export default function ProfilePage() {
  const auth = useSignedIn('/request-invite');
  const [load, setLoad] = useState<Load>({ phase: 'loading' });
  const [editing, setEditing] = useState(false);
  // 'Saved' after a successful save, until the next edit; focus returns to 'Edit Profile' on closing.
  const [saved, setSaved] = useState(false);
  const [returnFocus, setReturnFocus] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!editing && returnFocus) editButton.current?.focus();
  }, [editing, returnFocus]);

  useEffect(() => {
    if (auth.status === 'authenticated') void loadProfile().then(setLoad);
  }, [auth.status]);

  if (auth.status !== 'authenticated' || load.phase === 'loading')
    return <p role="status">{TEXTS.loading}</p>;
  if (load.phase === 'error') {
    return <LoadFailed title={TEXTS.profileLoadFailed} onRetry={() => void loadProfile().then(setLoad)} />;
  }

  const { profile } = load;
  const livePath =
    profile.status === 'approved' && profile.display_username ? `/${profile.display_username}` : null;
  return (
    <>
      <p className={`status-banner status-banner--${profile.status}`} role="status">
        {PROFILE_STATUS_LABELS[profile.status]}
      </p>
      <div className="panel">
        <dl className="profile-facts">
          <dt>Threads username</dt>
          <dd>@{profile.threads_username}</dd>
          <dt>Display username</dt>
          <dd>{profile.display_username ?? '—'}</dd>
          <dt>Bio</dt>
          <dd className="profile-facts__bio">{profile.bio || '—'}</dd>
        </dl>
        {livePath && (
          <p>
            <a href={livePath}>View your live profile</a>
          </p>
        )}
        {profile.status === 'approved' &&
          (editing ? (
            <ProfileEditForm
              profile={profile}
              onSaved={(updated) => {
                setLoad({ phase: 'ready', profile: updated });
                setEditing(false);
                setSaved(true);
                setReturnFocus(true);
              }}
              onCancel={() => {
                setEditing(false);
                setReturnFocus(true);
              }}
            />
          ) : (
            <button
              ref={editButton}
              type="button"
              className="button"
              onClick={() => {
                setSaved(false);
                setEditing(true);
              }}
            >
              {TEXTS.editProfile}
            </button>
          ))}
        <p className="profile-saved" role="status">
          {saved && MEMBER_TEXTS.saved}
        </p>
      </div>
      <NoticeMailSettings />
      <ProfileTabs collections={profile} own />
    </>
  );
}
