import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useEffect } from 'react';
import type { AuthConfig, VerifyResponse } from '../../contract/auth.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api } from '../lib/api.ts';
import {
  authorizeUrl,
  CALLBACK_PATHS,
  createOAuthState,
  OAUTH_REDIRECT_KEY,
  OAUTH_RETURN_KEY,
  OAUTH_STATE_KEY,
} from '../lib/oauth.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { clearStoredUser, readStoredUser, storeUser, type StoredUser } from '../lib/user-storage.ts';
import { wakeUpBackend } from '../lib/wake-up.ts';

export type AuthState =
  { status: 'loading' } | { status: 'anonymous' } | { status: 'authenticated'; user: StoredUser };

/** Loading first; authenticated only when a stored user exists and the server verifies the session. */
export const $auth = atom<AuthState>({ status: 'loading' });

/**
 * True from the moment Logout is pressed until the page leaves: the state itself stays signed in
 * then (see logout), so islands that would still call the API for the member ask this first.
 */
export const $signingOut = atom(false);
/** True while login wakes the backend and prepares the redirect ('Connecting...'). */
export const $connecting = atom(false);
/** The last login problem to show next to the button, or null. */
export const $loginError = atom<string | null>(null);

let checked: Promise<void> | null = null;

/** Checks the session again (the debug page's Refresh). */
export function recheckAuth(): Promise<void> {
  checked = null;
  return checkAuth();
}

/** Checks the session once per page: no stored user means signed out without asking the server. */
export function checkAuth(): Promise<void> {
  checked ??= (async () => {
    // The callback page is making a new session: a check with the old cookie would race it (the
    // exchange ends the old session), and a sign-in while signed in (connecting the curation
    // account) would be signed out by the check's 401. The page leaves in 2 s and checks there.
    if (CALLBACK_PATHS.includes(window.location.pathname)) return;
    const stored = readStoredUser();
    if (!stored) return $auth.set({ status: 'anonymous' });
    try {
      const verified = await api<VerifyResponse>('/api/auth/verify');
      const user = { id: verified.user_id, username: verified.username };
      storeUser(user);
      $auth.set({ status: 'authenticated', user });
    } catch {
      clearStoredUser();
      $auth.set({ status: 'anonymous' });
    }
  })();
  return checked;
}

/**
 * Leaves for the provider's authorize page with a fresh state, asking for the member's scopes, or
 * with `curator` the curation account's (and coming back to the dashboard). Null when it left;
 * otherwise why it could not (no backend, no client id).
 */
async function startAuthorize(curator: boolean): Promise<string | null> {
  try {
    if (!(await wakeUpBackend())) {
      console.error(TEXTS.backendTimeout);
      return TEXTS.backendTimeout;
    }
    const config = await api<AuthConfig>('/api/auth/config');
    if (!config.client_id) return TEXTS.loginUnavailable;
    const state = createOAuthState();
    sessionStorage.setItem(OAUTH_STATE_KEY, state);
    sessionStorage.setItem(OAUTH_REDIRECT_KEY, config.redirect_uri);
    sessionStorage.setItem(OAUTH_RETURN_KEY, curator ? '/dashboard' : '/');
    window.location.assign(authorizeUrl(config, state, curator ? config.curator_scopes : config.scopes));
    return null;
  } catch {
    return TEXTS.loginUnavailable;
  }
}

/**
 * Starts sign-in: wakes the backend, reads the public OAuth settings, saves a fresh state and leaves
 * for the provider's authorize page. Returns false when sign-in cannot start (no client id, no backend).
 */
export async function login(): Promise<boolean> {
  $connecting.set(true);
  $loginError.set(null);
  const failure = await startAuthorize(false);
  // 'Connecting...' stays on while the browser leaves for the provider.
  if (failure === null) return true;
  $connecting.set(false);
  $loginError.set(failure);
  return false;
}

/**
 * Connects the curation account (admins, from the dashboard): the same flow as login, asking for
 * the curation scopes, back on /dashboard afterwards. Resolves to why it could not start, or null.
 */
export function connectCurationAccount(): Promise<string | null> {
  return startAuthorize(true);
}

/** Signs out: ends the session on the server, clears what the browser stored, and goes home. */
export async function logout(): Promise<void> {
  $signingOut.set(true);
  // The state stays as it is until the page leaves: flipping it to signed-out here would let a
  // protected page's guard redirect elsewhere first (spec: logout goes to /).
  await api('/api/auth/logout', { method: 'POST' }).catch(() => {});
  clearStoredUser();
  sessionStorage.removeItem(OAUTH_STATE_KEY);
  window.location.assign('/');
}

const LOADING: AuthState = { status: 'loading' };

/**
 * The auth state as an island may render it. Until the island has hydrated it is 'loading', as on
 * the server: another island may already have checked the session, and rendering that result during
 * hydration would not match the pre-rendered HTML.
 */
export function useAuth(): AuthState {
  const auth = useStore($auth);
  return useHydrated() ? auth : LOADING;
}

/**
 * The auth state for a protected page: checks the session once, and sends a signed-out visitor to
 * `redirectTo` (spec: protected routes show 'Loading...' and then leave).
 */
export function useSignedIn(redirectTo: string): AuthState {
  const auth = useAuth();
  useEffect(() => {
    void checkAuth();
  }, []);
  useEffect(() => {
    if (auth.status === 'anonymous') window.location.replace(redirectTo);
  }, [auth.status, redirectTo]);
  return auth;
}
