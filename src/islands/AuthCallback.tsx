import { useEffect, useState } from 'react';
import type { CallbackResponse } from '../../contract/auth.ts';
import { authorizationFailedWith, TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { OAUTH_REDIRECT_KEY, OAUTH_RETURN_KEY, OAUTH_STATE_KEY, returnPath } from '../lib/oauth.ts';
import { storeUser } from '../lib/user-storage.ts';

type Outcome = { phase: 'loading' } | { phase: 'success' } | { phase: 'error'; reason: string };

/** Redirect home (or back to the dashboard after a connect) this long after success (spec section 9). */
const REDIRECT_DELAY_MS = 2000;

/**
 * The callback's whole flow, once per page load. Every check happens before any call to the server:
 * a forged, missing or replayed state never reaches the code exchange.
 */
async function completeSignIn(): Promise<Outcome> {
  const params = new URLSearchParams(window.location.search);
  // The code and state must not linger in the address bar or history (RFC 9700).
  window.history.replaceState(null, '', window.location.pathname);
  const expectedState = sessionStorage.getItem(OAUTH_STATE_KEY);
  const redirectUri = sessionStorage.getItem(OAUTH_REDIRECT_KEY) ?? `${window.location.origin}/auth/callback`;
  const next = returnPath(sessionStorage.getItem(OAUTH_RETURN_KEY));
  // Single use: a reload or a replayed URL finds no state.
  sessionStorage.removeItem(OAUTH_STATE_KEY);
  sessionStorage.removeItem(OAUTH_REDIRECT_KEY);
  sessionStorage.removeItem(OAUTH_RETURN_KEY);

  const error = params.get('error');
  if (error) return { phase: 'error', reason: authorizationFailedWith(error) };
  const code = params.get('code');
  if (!code) return { phase: 'error', reason: TEXTS.noAuthorizationCode };
  if (!expectedState || params.get('state') !== expectedState)
    return { phase: 'error', reason: TEXTS.invalidState };

  try {
    const body = await api<Partial<CallbackResponse>>('/api/auth/callback', {
      method: 'POST',
      body: { code, redirect_uri: redirectUri },
    });
    if (body.success !== true || typeof body.user_id !== 'string')
      return { phase: 'error', reason: TEXTS.missingSuccessFlag };
    storeUser({ id: body.user_id, username: body.username ?? null });
    setTimeout(() => window.location.assign(next), REDIRECT_DELAY_MS);
    return { phase: 'success' };
  } catch (failure) {
    if (failure instanceof ApiRequestError && failure.status === 403)
      return { phase: 'error', reason: TEXTS.accessDenied };
    return { phase: 'error', reason: (failure as Error).message };
  }
}

/** The OAuth callback page (spec sections 2, 5 and 8). */
export default function AuthCallback() {
  const [outcome, setOutcome] = useState<Outcome>({ phase: 'loading' });
  useEffect(() => {
    void completeSignIn().then(setOutcome);
  }, []);

  if (outcome.phase === 'loading') {
    return (
      <p className="callback__status" role="status">
        {TEXTS.processingAuthorization}
      </p>
    );
  }
  if (outcome.phase === 'success') {
    return (
      <p className="callback__status callback__status--success" role="status">
        {TEXTS.authorizationSuccess}
      </p>
    );
  }
  return (
    <div className="notice notice--error" role="alert">
      <p className="notice__title">{TEXTS.authorizationFailed}</p>
      <p>{outcome.reason}</p>
      <button type="button" className="button" onClick={() => window.location.assign('/')}>
        {TEXTS.returnHome}
      </button>
    </div>
  );
}
