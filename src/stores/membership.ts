import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useEffect } from 'react';
import type { Membership } from '../../contract/membership.ts';
import { api } from '../lib/api.ts';
import { $auth } from './auth.ts';

/** What the signed-in person may do: unknown until `GET /api/user/me` answers. */
export type MembershipState =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; membership: Membership };

/** Loading until a signed-in page has asked the server once. */
export const $membership = atom<MembershipState>({ status: 'loading' });

let loaded: Promise<void> | null = null;

/** Asks the server once per page (Try Again asks again with `force`). Call only when signed in. */
export function loadMembership(force = false): Promise<void> {
  if (force) {
    loaded = null;
    $membership.set({ status: 'loading' });
  }
  loaded ??= api<Membership>('/api/user/me').then(
    (membership) => $membership.set({ status: 'ready', membership }),
    () => $membership.set({ status: 'error' }),
  );
  return loaded;
}

/** The membership of the signed-in person, loaded once the session is verified; 'loading' before that. */
export function useMembership(): MembershipState {
  const auth = useStore($auth);
  const membership = useStore($membership);
  const signedIn = auth.status === 'authenticated';
  useEffect(() => {
    if (signedIn) void loadMembership();
  }, [signedIn]);
  return signedIn ? membership : { status: 'loading' };
}
