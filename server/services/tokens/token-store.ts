import type { Database } from '../../db/client.ts';
import {
  createThreadsTokensRepository,
  type SealedHolder,
  type StoredToken,
} from '../../repositories/threads-tokens.ts';
import type { User } from '../../repositories/users.ts';
import { decryptToken, encryptToken } from '../../threads/token-cipher.ts';

export type { StoredToken };

/** A user who can act on Threads, with their decrypted token. */
export interface TokenHolder {
  user: User;
  token: string;
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
    holders.map(({ user, ciphertext }) => ({ user, token: decryptToken(ciphertext, user.id, tokenKey) }));

  return {
    /** Stores a user's token (sealed), replacing any earlier one. */
    async save(
      userId: string,
      accessToken: string,
      issuedAt: Date,
      expiresAt: Date,
      tx: Database = db,
    ): Promise<void> {
      await tokens.save(userId, seal(accessToken, userId), issuedAt, expiresAt, tx);
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
      const stored = await tokens.find(user.id);
      if (!stored || user.reconnectNeeded) return null;
      try {
        return reveal(stored);
      } catch {
        return null;
      }
    },

    /** Users whose token was issued before `cutoff` (due for a refresh). */
    issuedBefore(cutoff: Date): Promise<string[]> {
      return tokens.listIssuedBefore(cutoff);
    },

    /**
     * Whose token searches: the person bound to CURATOR_THREADS_USERNAME when set (and they have a
     * working token), otherwise the longest-standing admin with one (granted by the CLI, or bound to a
     * username in ADMIN_THREADS_USERNAMES). Roles follow the Threads user id bound at first sign-in,
     * never a username someone else may hold now. Null when nobody can.
     */
    async curator(
      settings: { curatorUsername: string | null },
      adminUsernames: readonly string[],
    ): Promise<TokenHolder | null> {
      const [first] = open(await tokens.holdersForCuration(settings.curatorUsername, adminUsernames));
      return first ?? null;
    },

    /** Approved members with a working token: their own posts are collected. */
    async membersWithTokens(): Promise<TokenHolder[]> {
      return open(await tokens.approvedMemberHolders());
    },
  };
}

export type TokenStore = ReturnType<typeof createTokenStore>;
