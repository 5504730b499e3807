import { useEffect } from 'react';
import { checkAuth, type AuthState } from '../stores/auth.ts';
import { useAuth } from './use-auth.ts';

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
