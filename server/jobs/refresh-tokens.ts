import type { Database } from '../db/client.ts';
import { createThreadsTokensRepository } from '../repositories/threads-tokens.ts';
import { createUsersRepository } from '../repositories/users.ts';
import { ThreadsApiError, type ThreadsGateway } from '../threads/gateway.ts';
import { decryptToken, encryptToken } from '../threads/token-cipher.ts';

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
 * Renews one user's long-lived Threads token when it is old enough. When Threads refuses the token
 * (expired or revoked) the user is marked "reconnect needed" and must sign in again; an unreachable
 * Threads is rethrown for the caller to retry later.
 */
export async function refreshStoredToken(userId: string, deps: RefreshDeps): Promise<RefreshOutcome> {
  const now = deps.now?.() ?? new Date();
  const tokens = createThreadsTokensRepository(deps.db);
  const stored = await tokens.find(userId);
  if (!stored) return 'no_token';
  if (now.getTime() - stored.issuedAt.getTime() < REFRESHABLE_AFTER_MS) return 'too_recent';
  try {
    const grant = await deps.gateway.refreshToken(decryptToken(stored.ciphertext, userId, deps.tokenKey));
    const expiresAt = new Date(now.getTime() + grant.expiresInSeconds * 1000);
    await tokens.save(userId, encryptToken(grant.accessToken, userId, deps.tokenKey), now, expiresAt);
    return 'refreshed';
  } catch (error) {
    if (error instanceof ThreadsApiError && error.kind === 'unavailable') throw error;
    await createUsersRepository(deps.db).setReconnectNeeded(userId, true);
    return 'reconnect_needed';
  }
}

export interface RefreshSummary {
  due: number;
  refreshed: number;
  reconnectNeeded: number;
  /** Threads did not answer: these are tried again at the next run. */
  unavailable: number;
}

/**
 * The daily job: renews every token older than a day, long before its 60 days run out. One user's
 * failure never stops the others.
 */
export async function refreshDueTokens(deps: RefreshDeps): Promise<RefreshSummary> {
  const now = deps.now?.() ?? new Date();
  const due = await createThreadsTokensRepository(deps.db).listIssuedBefore(
    new Date(now.getTime() - REFRESHABLE_AFTER_MS),
  );
  const summary: RefreshSummary = { due: due.length, refreshed: 0, reconnectNeeded: 0, unavailable: 0 };
  for (const userId of due) {
    try {
      const outcome = await refreshStoredToken(userId, { ...deps, now: () => now });
      if (outcome === 'refreshed') summary.refreshed++;
      if (outcome === 'reconnect_needed') summary.reconnectNeeded++;
    } catch {
      summary.unavailable++;
    }
  }
  return summary;
}
