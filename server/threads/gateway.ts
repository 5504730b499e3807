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
 * An error text from Threads, safe to log and show: long opaque runs (tokens, codes, secrets an
 * error body may echo back) are masked, and the whole is capped.
 */
export function redactSecrets(text: string): string {
  const masked = text.replace(/[A-Za-z0-9_\-.|%+/=]{16,}/g, '[redacted]');
  return masked.length > 300 ? `${masked.slice(0, 300)}...` : masked;
}

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
