import type { FastifyReply } from 'fastify';
import { invalidToken, missingPermission } from './graph-error.ts';
import type { SimulatedThreadsStore, TokenOwner } from './store.ts';

/** The permissions a Threads app can ask for (threads-api.md section 1, scopes). */
export const KNOWN_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_keyword_search',
  'threads_manage_insights',
  'threads_read_replies',
  'threads_manage_replies',
  'threads_manage_mentions',
  'threads_delete',
  'threads_location_tagging',
  'threads_profile_discovery',
] as const;

/**
 * The owner of `token` when it is live and was granted `scope`; otherwise the refusal Meta sends is
 * already on its way and null comes back. Every endpoint needs threads_basic (threads-api.md
 * section 1); the others name the permission of their use (section 10).
 */
export function authorizeCall(
  store: SimulatedThreadsStore,
  reply: FastifyReply,
  token: string | undefined,
  scope: (typeof KNOWN_SCOPES)[number] = 'threads_basic',
): TokenOwner | null {
  const owner = store.grantOf(token ?? '');
  if (!owner) {
    void invalidToken(reply);
    return null;
  }
  for (const needed of new Set(['threads_basic', scope])) {
    if (!owner.scopes.includes(needed)) {
      void missingPermission(reply, needed);
      return null;
    }
  }
  return owner;
}
