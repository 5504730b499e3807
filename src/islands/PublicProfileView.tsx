import { useEffect, useState } from 'react';
import {
  displayUsernameProblem,
  type PublicProfile,
  threadsProfileUrl,
} from '../../contract/profile-rules.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { countLabel } from '../lib/format.ts';
import ProfileTabs from '../components/react/ProfileTabs.tsx';

type View =
  | { phase: 'loading' }
  | { phase: 'missing' }
  | { phase: 'error' }
  | { phase: 'ready'; profile: PublicProfile };

/** The single path segment that could be a member's name, or null (multi-segment paths stay a plain 404). */
function candidateName(): string | null {
  const segments = window.location.pathname.split('/').filter(Boolean);
  if (segments.length !== 1) return null;
  const name = decodeURIComponent(segments[0] ?? '');
  return displayUsernameProblem(name) === null ? name : null;
}

async function fetchProfile(name: string): Promise<View> {
  try {
    return {
      phase: 'ready',
      profile: await api<PublicProfile>(`/api/user/profile/${encodeURIComponent(name)}`),
    };
  } catch (error) {
    return error instanceof ApiRequestError && error.status === 404
      ? { phase: 'missing' }
      : { phase: 'error' };
  }
}

interface Props {
  /** The profile as it was at build time, on a pre-rendered page; it is refreshed once hydrated. */
  profile?: PublicProfile;
}

/**
 * Public profiles at /{username} (DESIGN section 5). On a pre-rendered page it shows the built
 * profile at once and refreshes it. On the 404 page it looks a single-segment path up and shows
 * the profile or 'Profile not found' instead of the plain 404.
 */
export default function PublicProfileView({ profile: built }: Props) {
  const [name] = useState(() => built?.username ?? candidateName());
  const [view, setView] = useState<View>(built ? { phase: 'ready', profile: built } : { phase: 'loading' });

  useEffect(() => {
    if (!name) return;
    if (!built) document.getElementById('not-found')?.setAttribute('hidden', '');
    void fetchProfile(name).then((next) => {
      // A server that cannot answer right now must not hide a page that was built fine.
      if (!(built && next.phase === 'error')) setView(next);
    });
  }, [name, built]);

  if (!name) return null;
  if (view.phase === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (view.phase !== 'ready') {
    return (
      <section className="not-found" aria-labelledby="profile-missing">
        <h1 id="profile-missing">
          {view.phase === 'missing' ? TEXTS.profileNotFound : TEXTS.profileLoadFailed}
        </h1>
        <button type="button" className="button" onClick={() => window.location.assign('/')}>
          {TEXTS.backToHome}
        </button>
      </section>
    );
  }
  const { profile } = view;
  return (
    <article className="page-narrow public-profile">
      <h1>@{profile.username}</h1>
      {profile.bio && <p className="profile-facts__bio">{profile.bio}</p>}
      <p>
        <a href={threadsProfileUrl(profile.threads_username)} rel="noopener noreferrer">
          @{profile.threads_username} on Threads
        </a>
      </p>
      <p className="field-help">
        {countLabel(profile.gem_count, 'gem', 'gems')} ·{' '}
        {countLabel(profile.thread_count, 'thread', 'threads')}
      </p>
      <ProfileTabs collections={profile} own={false} />
    </article>
  );
}
