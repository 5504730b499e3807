/** A Threads account as `/me` reports it. The id is a string: Threads ids exceed 2^53. */
export interface ThreadsAccount {
  id: string;
  username: string;
}

export interface TokenGrant {
  accessToken: string;
  expiresInSeconds: number;
}

/** A post as the media endpoints return it (threads-api.md section 2); absent fields are null. */
export interface ThreadsPost {
  id: string;
  username: string;
  text: string;
  /** TEXT_POST, IMAGE, VIDEO, CAROUSEL_ALBUM, ... (an open set: search has been seen to say TEXT). */
  mediaType: string;
  mediaUrl: string | null;
  permalink: string | null;
  shortcode: string | null;
  timestamp: string | null;
  topicTag: string | null;
}

export type SearchMode = 'KEYWORD' | 'TAG';
export type SearchType = 'TOP' | 'RECENT';

export interface PostPage {
  posts: ThreadsPost[];
  /** The `after` cursor of the next page, or null on the last one. */
  next: string | null;
}

/** Likes and replies of one of the user's own posts (the insights endpoint). */
export interface PostInsights {
  likes: number | null;
  replies: number | null;
}

/** The part of the Threads API the product uses; the live client implements it over HTTP. */
export interface ThreadsGateway {
  /** One keyword or topic-tag search (counts against the 2,200 per 24 h quota). */
  keywordSearch(
    accessToken: string,
    query: { q: string; mode: SearchMode; type: SearchType; limit?: number },
  ): Promise<ThreadsPost[]>;
  /** A page of the token owner's own posts. */
  ownThreads(accessToken: string, after?: string | null): Promise<PostPage>;
  /** One post by media id, or null when Threads says it no longer exists. */
  post(accessToken: string, mediaId: string): Promise<ThreadsPost | null>;
  /** Insights of the token owner's own post. */
  insights(accessToken: string, mediaId: string): Promise<PostInsights>;
  /**
   * Publishing, step one: a text container on the token owner's account, quoting another post when
   * its media id is given. Returns the container's id (the creation id).
   */
  createTextContainer(
    accessToken: string,
    post: { text: string; quotePostId?: string | null },
  ): Promise<string>;
  /** Publishing, step two: publishes a container; returns the new post's id and permalink. */
  publishContainer(
    accessToken: string,
    creationId: string,
  ): Promise<{ id: string; permalink: string | null }>;
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
  /** Graph's error_subcode (33: the object does not exist or cannot be read). */
  readonly subcode: number | null;

  constructor(message: string, kind: ThreadsErrorKind, status: number | null, subcode: number | null = null) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.subcode = subcode;
  }
}
