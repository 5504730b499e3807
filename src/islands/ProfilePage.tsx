import { useEffect, useState, type FormEvent } from 'react';
import {
  BIO_MAX,
  bioProblem,
  displayUsernameProblem,
  type OwnProfile,
} from '../../contract/profile-rules.ts';
import { PROFILE_STATUS_LABELS, TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { useSignedIn } from '../lib/use-signed-in.ts';
import ProfileTabs from './ProfileTabs.tsx';
import LoadFailed from './LoadFailed.tsx';

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
            <ProfileForm
              profile={profile}
              onSaved={(saved) => {
                setLoad({ phase: 'ready', profile: saved });
                setEditing(false);
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {TEXTS.editProfile}
            </button>
          ))}
      </div>
      <ProfileTabs collections={profile} own />
    </>
  );
}

interface FormProps {
  profile: OwnProfile;
  onSaved(profile: OwnProfile): void;
  onCancel(): void;
}

/** Edits the display username and bio; the same rules as the server, checked before sending. */
function ProfileForm({ profile, onSaved, onCancel }: FormProps) {
  const [name, setName] = useState(profile.display_username ?? '');
  const [bio, setBio] = useState(profile.bio);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local = displayUsernameProblem(name) ?? bioProblem(bio);
    if (local) return setProblem(local);
    setSaving(true);
    setProblem(null);
    try {
      onSaved(
        await api<OwnProfile>('/api/user/profile', { method: 'PUT', body: { display_username: name, bio } }),
      );
    } catch (error) {
      setProblem((error instanceof ApiRequestError && error.detail) || TEXTS.profileUpdateFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="profile-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor="display-username">Display username</label>
      <input
        id="display-username"
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoComplete="off"
        aria-describedby="display-username-help"
        required
      />
      <p id="display-username-help" className="field-help">
        3 to 30 letters, numbers or underscores. Your public page will be at /{name || 'your_name'}.
      </p>
      <label htmlFor="bio">Bio</label>
      <textarea
        id="bio"
        rows={4}
        value={bio}
        onChange={(event) => setBio(event.target.value)}
        aria-describedby="bio-help"
      />
      <p id="bio-help" className="field-help">
        {[...bio].length} / {BIO_MAX}
      </p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={saving}>
          {TEXTS.saveChanges}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          {TEXTS.cancel}
        </button>
      </div>
    </form>
  );
}
