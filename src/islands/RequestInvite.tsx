import { useCallback, useEffect, useRef, useState } from 'react';
import type { OwnProfile } from '../../contract/profile-rules.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { checkAuth, login, useAuth } from '../stores/auth.ts';
import LoadFailed from '../components/react/LoadFailed.tsx';

type InviteState =
  | { phase: 'checking' }
  | { phase: 'error' }
  | { phase: 'none'; requesting: boolean; problem: string | null }
  | { phase: 'pending' | 'rejected' };

/** The invite state of the signed-in user: none (404), pending, rejected; approved leaves for /profile. */
async function fetchInviteState(): Promise<InviteState> {
  try {
    const profile = await api<OwnProfile>('/api/user/profile');
    if (profile.status === 'approved') {
      window.location.replace('/profile');
      return { phase: 'checking' };
    }
    return { phase: profile.status };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404)
      return { phase: 'none', requesting: false, problem: null };
    return { phase: 'error' };
  }
}

/** The invite page (spec: Request invite): Join when signed out, then the request's states. */
export default function RequestInvite() {
  const auth = useAuth();
  const [state, setState] = useState<InviteState>({ phase: 'checking' });
  // After Request Invite or Check Status the button that had the focus is gone: the heading of what
  // replaced it takes the focus (and is read out), or Try Again when the check failed, instead of
  // the page's <body>.
  const focusHeading = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const retry = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const target = heading.current ?? retry.current;
    if (!focusHeading.current || !target) return;
    focusHeading.current = false;
    target.focus();
  }, [state]);
  const refresh = useCallback(() => {
    focusHeading.current = true;
    setState({ phase: 'checking' });
    void fetchInviteState().then(setState);
  }, []);

  useEffect(() => {
    void checkAuth();
  }, []);
  useEffect(() => {
    if (auth.status === 'authenticated') void fetchInviteState().then(setState);
  }, [auth.status]);

  async function requestInvite() {
    if (state.phase === 'none' && state.requesting) return;
    setState({ phase: 'none', requesting: true, problem: null });
    try {
      const profile = await api<OwnProfile>('/api/user/request-invite', { method: 'POST' });
      focusHeading.current = true;
      setState({ phase: profile.status === 'approved' ? 'checking' : profile.status });
      if (profile.status === 'approved') window.location.replace('/profile');
    } catch (error) {
      const problem = (error instanceof ApiRequestError && error.detail) || TEXTS.inviteRequestFailed;
      setState({ phase: 'none', requesting: false, problem });
    }
  }

  if (auth.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (auth.status === 'anonymous') {
    return (
      <div className="panel">
        <h2>{TEXTS.join}</h2>
        <p>Curated Threads is invite-only. Sign in with your Threads account to ask for an invite.</p>
        <button type="button" className="button" onClick={() => void login()}>
          {TEXTS.goToLogin}
        </button>
      </div>
    );
  }

  switch (state.phase) {
    case 'checking':
      return <p role="status">Checking your invite status...</p>;
    case 'error':
      return <LoadFailed title={TEXTS.profileStatusFailed} onRetry={refresh} retryRef={retry} />;
    case 'pending':
      return (
        <div className="panel">
          <h2 ref={heading} tabIndex={-1}>
            {TEXTS.invitePending}
          </h2>
          <p>Thanks for asking! An administrator will review your request. {TEXTS.reviewTime}</p>
          <button type="button" className="button" onClick={refresh}>
            {TEXTS.checkStatus}
          </button>
        </div>
      );
    case 'rejected':
      return (
        <div className="panel">
          <h2 ref={heading} tabIndex={-1}>
            {TEXTS.inviteDeclined}
          </h2>
          <p>
            Your invite request was not approved. If you think this is a mistake, please contact the
            administrator.
          </p>
        </div>
      );
    case 'none':
      return (
        <div className="panel">
          <h2 ref={heading} tabIndex={-1}>
            Become a member
          </h2>
          <ul>
            <li>Get a public profile page with your curated design threads.</li>
            <li>Submit thread links for the curated collection.</li>
            <li>See your own threads and collect favourites as gems.</li>
          </ul>
          {state.problem && (
            <p className="form-error" role="alert">
              {state.problem}
            </p>
          )}
          <button
            type="button"
            className="button"
            onClick={() => void requestInvite()}
            // Not disabled while it runs: a disabled button would drop the keyboard focus.
            aria-disabled={state.requesting}
          >
            {TEXTS.requestInvite}
          </button>
        </div>
      );
  }
}
