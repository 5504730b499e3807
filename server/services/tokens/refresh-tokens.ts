import type { Database } from '../../db/client.ts';
import { createUsersRepository } from '../../repositories/users.ts';
import { ThreadsApiError, type ThreadsGateway } from '../../threads/gateway.ts';
import { createTokenStore } from './token-store.ts';

/** Threads refreshes a long-lived token only once it is a day old. */
export const REFRESHABLE_AFTER_MS = 24 * 3_600_000;

export interface RefreshDeps {
  db: Database;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
  now?: () => Date;
}

export type RefreshOutcome = 'refreshed' | 'too_recent' | 'no_token' | 'reconnect_needed';

/**
 * Renews one user's long-lived Threads token when it is old enough. Only Threads refusing the token
 * itself (expired or revoked: `invalid_token`) marks the user "reconnect needed"; throttling, an
 * outage or any other refusal is rethrown for the caller to try again later (threads-api.md
 * section 10, errors: a throttled refresh is never a revoked token).
 */
export function refreshStoredToken(userId: string, deps: RefreshDeps): Promise<RefreshOutcome> {
  // One refresh per user at a time in this process: two that overlap would both present the old
  // token, Threads would refuse the second after the first replaced it, and the user would be
  // wrongly marked "reconnect needed". The second waits and then sees the renewed token.
  const previous = inFlight.get(userId) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(() => refreshNow(userId, deps));
  inFlight.set(userId, run);
  return run.finally(() => {
    if (inFlight.get(userId) === run) inFlight.delete(userId);
  });
}

const inFlight = new Map<string, Promise<unknown>>();

async function refreshNow(userId: string, deps: RefreshDeps): Promise<RefreshOutcome> {
  const now = deps.now?.() ?? new Date();
  const tokens = createTokenStore(deps);
  const stored = await tokens.find(userId);
  if (!stored) return 'no_token';
  if (now.getTime() - stored.issuedAt.getTime() < REFRESHABLE_AFTER_MS) return 'too_recent';
  let grant;
  try {
    grant = await deps.gateway.refreshToken(tokens.reveal(stored));
  } catch (error) {
    // Only Threads refusing the token means the user must reconnect; anything else is retried later.
    if (!(error instanceof ThreadsApiError) || error.kind !== 'invalid_token') throw error;
    // Another refresh (the daily job, or the user's own) may have replaced the token meanwhile:
    // Threads then refuses the old one, but the user is fine.
    const current = await tokens.find(userId);
    if (current && current.ciphertext !== stored.ciphertext) return 'refreshed';
    await createUsersRepository(deps.db).setReconnectNeeded(userId, true);
    return 'reconnect_needed';
  }
  const expiresAt = new Date(now.getTime() + grant.expiresInSeconds * 1000);
  await tokens.replaceIfUnchanged(stored, grant.accessToken, now, expiresAt);
  return 'refreshed';
}

export interface RefreshSummary {
  due: number;
  refreshed: number;
  reconnectNeeded: number;
  /** Threads throttled the refresh (codes 4, 17, 32, 613, HTTP 429): tried again at the next run. */
  throttled: number;
  /** Threads did not answer, or a transient fault (codes 1, 2, HTTP 5xx): tried again at the next run. */
  unavailable: number;
  /** Any other failure (logged by the caller through the summary): tried again at the next run. */
  failed: number;
}

/**
 * The daily job: renews every token older than a day, long before its 60 days run out. One user's
 * failure never stops the others.
 */
export async function refreshDueTokens(deps: RefreshDeps): Promise<RefreshSummary> {
  const now = deps.now?.() ?? new Date();
  const due = await createTokenStore(deps).issuedBefore(new Date(now.getTime() - REFRESHABLE_AFTER_MS));
  const summary: RefreshSummary = {
    due: due.length,
    refreshed: 0,
    reconnectNeeded: 0,
    throttled: 0,
    unavailable: 0,
    failed: 0,
  };
  for (const userId of due) {
    try {
      const outcome = await refreshStoredToken(userId, { ...deps, now: () => now });
      if (outcome === 'refreshed') summary.refreshed++;
      if (outcome === 'reconnect_needed') summary.reconnectNeeded++;
    } catch (error) {
      const kind = error instanceof ThreadsApiError ? error.kind : null;
      if (kind === 'throttled') summary.throttled++;
      else if (kind === 'unavailable') summary.unavailable++;
      else summary.failed++;
    }
  }
  return summary;
}
