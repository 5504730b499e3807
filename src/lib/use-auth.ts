import { useStore } from '@nanostores/react';
import { $auth, type AuthState } from '../stores/auth.ts';
import { useHydrated } from './use-hydrated.ts';

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
