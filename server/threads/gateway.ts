/** A Threads account as `/me` reports it. The id is a string: Threads ids exceed 2^53. */
export interface ThreadsAccount {
  id: string;
  username: string;
}

export interface TokenGrant {
  accessToken: string;
  expiresInSeconds: number;
}

/** The part of the Threads API that sign-in needs; the live client implements it over HTTP. */
export interface ThreadsGateway {
  /** Trades an authorization code for a short-lived token (1 hour). */
  exchangeCode(code: string, redirectUri: string): Promise<{ accessToken: string; userId: string }>;
  /** Trades a short-lived token for a long-lived one (60 days). */
  exchangeForLongLived(shortLivedToken: string): Promise<TokenGrant>;
  /** Renews a long-lived token that is at least 24 hours old and not expired. */
  refreshToken(longLivedToken: string): Promise<TokenGrant>;
  me(accessToken: string): Promise<ThreadsAccount>;
}

export type ThreadsErrorKind = 'invalid_token' | 'rejected' | 'unavailable';

/**
 * A failed Threads call, in words a person can act on. Never carries a token or a secret: messages
 * come from the error body Threads sent, or from the failure itself.
 */
export class ThreadsApiError extends Error {
  override name = 'ThreadsApiError';
  readonly kind: ThreadsErrorKind;
  /** The HTTP status Threads answered with, or null when it did not answer. */
  readonly status: number | null;

  constructor(message: string, kind: ThreadsErrorKind, status: number | null) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}
