import type { Database } from '../../db/client.ts';
import {
  createThreadsTokensRepository,
  type SealedHolder,
  type StoredToken,
} from '../../repositories/threads-tokens.ts';
import type { User } from '../../repositories/users.ts';
import { CURATOR_SCOPES, MEMBER_SCOPES } from '../../threads/settings.ts';
import { decryptToken, encryptToken } from '../../threads/token-cipher.ts';

export type { StoredToken };

/** A decrypted token and the scopes it was granted: a call its scopes lack is never made (decision 068). */
export interface Grant {
  token: string;
  scopes: string[];
}

/** A user who can act on Threads, with their decrypted token and what it was granted. */
export interface TokenHolder extends Grant {
  user: User;
}

/** The account whose token curates, with what it granted and which curation scopes it lacks. */
export interface Curator extends TokenHolder {
  /** CURATOR_SCOPES this token was not granted (decision 024), in CURATOR_SCOPES order. */
  missing: string[];
}

/** The curation scopes `scopes` lacks. */
export function missingCuratorScopes(scopes: readonly string[]): string[] {
  return CURATOR_SCOPES.filter((scope) => !scopes.includes(scope));
}

/** The curation account among those who may curate: the first granted search, else the first. */
function pickCurator<T extends { scopes: readonly string[] }>(candidates: readonly T[]): T | undefined {
  return candidates.find((candidate) => candidate.scopes.includes('threads_keyword_search')) ?? candidates[0];
}

/** What a sign-in's token is to replace, and what it granted. */
export interface SignInToken {
  accessToken: string;
  scopes: readonly string[];
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * Whether a sign-in keeps the stored token instead of its new one: only when the new one grants no
 * more than a member's sign-in asks for (the curator signing in again with the login button) and the
 * stored one, still valid, grants more. Replacing it would silently stop curation and publishing
 * until the curation account is connected again. A deliberate connect (it asks for the curation
 * scopes) always replaces, even with boxes unticked: the person chose that grant.
 */
export function keepsStoredToken(
  stored: { scopes: readonly string[]; expiresAt: Date } | null,
  reconnectNeeded: boolean,
  next: SignInToken,
): boolean {
  if (!stored || reconnectNeeded || stored.expiresAt <= next.issuedAt) return false;
  const memberOnly = next.scopes.every((scope) => (MEMBER_SCOPES as readonly string[]).includes(scope));
  return memberOnly && stored.scopes.some((scope) => !next.scopes.includes(scope));
}

export interface TokenStoreDeps {
  db: Database;
  tokenKey: Buffer;
}

/**
 * The one place Threads tokens are sealed and opened (threads/token-cipher.ts): sign-in, refresh,
 * curation and publishing store and read them only through here.
 */
export function createTokenStore({ db, tokenKey }: TokenStoreDeps) {
  const tokens = createThreadsTokensRepository(db);
  const seal = (accessToken: string, userId: string) => encryptToken(accessToken, userId, tokenKey);
  const reveal = (stored: StoredToken): string => decryptToken(stored.ciphertext, stored.userId, tokenKey);
  const open = (holders: SealedHolder[]): TokenHolder[] =>
    holders.map(({ user, ciphertext, scopes }) => ({
      user,
      token: decryptToken(ciphertext, user.id, tokenKey),
      scopes,
    }));
  /** Stores a user's token (sealed) and the scopes it was granted, replacing any earlier one. */
  const save = async (userId: string, token: SignInToken, tx: Database = db): Promise<void> => {
    const { accessToken, ...rest } = token;
    await tokens.save(userId, { ciphertext: seal(accessToken, userId), ...rest }, tx);
  };

  /** The user's token with the scopes it was granted; null whenever `tokenOf` is. */
  const grantOf = async (user: User): Promise<Grant | null> => {
    const stored = await tokens.find(user.id);
    if (!stored || user.reconnectNeeded) return null;
    try {
      return { token: reveal(stored), scopes: stored.scopes };
    } catch {
      return null;
    }
  };

  return {
    save,

    /**
     * A sign-in's token: stored, unless the user's stored token grants more (see keepsStoredToken).
     * 'kept' when the stored one stays.
     */
    async saveOnSignIn(user: User, token: SignInToken, tx: Database = db): Promise<'saved' | 'kept'> {
      if (keepsStoredToken(await tokens.find(user.id, tx), user.reconnectNeeded, token)) return 'kept';
      await save(user.id, token, tx);
      return 'saved';
    },

    /**
     * Saves a renewed token only if the stored one is still `previous` (compare-and-set against the
     * refresh that raced it). False if it changed meanwhile.
     */
    replaceIfUnchanged(
      previous: StoredToken,
      accessToken: string,
      issuedAt: Date,
      expiresAt: Date,
      tx: Database = db,
    ): Promise<boolean> {
      const ciphertext = seal(accessToken, previous.userId);
      return tokens.replaceIfUnchanged(
        previous.userId,
        previous.ciphertext,
        { ciphertext, issuedAt, expiresAt },
        tx,
      );
    },

    /** A user's stored token, still sealed (compare it, or `reveal` it); null when there is none. */
    find(userId: string, tx: Database = db): Promise<StoredToken | null> {
      return tokens.find(userId, tx);
    },

    /** The token in a stored row; throws when it does not decrypt (another key, or another user's row). */
    reveal,

    /**
     * The user's token, or null when they have none, must reconnect, or it no longer decrypts (a
     * changed TOKEN_KEY): the caller then carries on as if they had no token.
     */
    async tokenOf(user: User): Promise<string | null> {
      return (await grantOf(user))?.token ?? null;
    },

    grantOf,

    /** Users whose token was issued before `cutoff` (due for a refresh). */
    issuedBefore(cutoff: Date): Promise<string[]> {
      return tokens.listIssuedBefore(cutoff);
    },

    /**
     * Whose token searches: the person bound to CURATOR_THREADS_USERNAME when set (and they have a
     * working token), otherwise the longest-standing admin with one (granted by the CLI, or bound to a
     * username in ADMIN_THREADS_USERNAMES). Of those, the first whose token was granted
     * threads_keyword_search, else the first at all, with what it lacks in `missing` (callers say so).
     * Roles follow the Threads user id bound at first sign-in, never a username someone else may hold
     * now. Null when nobody can.
     */
    async curator(
      settings: { curatorUsername: string | null },
      adminUsernames: readonly string[],
    ): Promise<Curator | null> {
      const holders = await tokens.holdersForCuration(settings.curatorUsername, adminUsernames);
      const chosen = pickCurator(holders);
      if (!chosen) return null;
      const [opened] = open([chosen]);
      if (!opened) return null;
      return { ...opened, missing: missingCuratorScopes(chosen.scopes) };
    },

    /**
     * The curation account as the dashboard shows it: the account `curator()` would use, or when
     * none has a working token, the first whose token Threads refused (it must be connected again).
     */
    async curatorStatus(
      settings: { curatorUsername: string | null },
      adminUsernames: readonly string[],
    ): Promise<{ user: User; scopes: string[]; missing: string[] } | null> {
      const candidates = await tokens.curationCandidates(settings.curatorUsername, adminUsernames);
      const working = candidates.filter((candidate) => !candidate.user.reconnectNeeded);
      const chosen = pickCurator(working) ?? candidates[0];
      return chosen ? { ...chosen, missing: missingCuratorScopes(chosen.scopes) } : null;
    },

    /** Approved members with a working token: their own posts are collected. */
    async membersWithTokens(): Promise<TokenHolder[]> {
      return open(await tokens.approvedMemberHolders());
    },
  };
}

export type TokenStore = ReturnType<typeof createTokenStore>;
