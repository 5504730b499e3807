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
  /** TEXT_POST, IMAGE, VIDEO, CAROUSEL_ALBUM, AUDIO (an open set: search has been seen to say TEXT). */
  mediaType: string;
  /**
   * The picture to show: `media_url` of an IMAGE, `thumbnail_url` of a VIDEO, the first child's
   * picture of a CAROUSEL_ALBUM (threads-api.md section 10, media types). A signed CDN address that
   * stops working within hours: never store it as if it were permanent.
   */
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
  /** Items of the page that were left out: reposts (REPOST_FACADE) and malformed items. */
  skipped: number;
}

export interface SearchQuery {
  q: string;
  mode: SearchMode;
  type: SearchType;
  /** At most 100 (threads-api.md section 3); the quota counts a query, not its size. */
  limit?: number;
  /** Only posts published after this moment (`since`, Unix seconds). */
  since?: Date | null;
  /** The cursor of the page to read (`after`). */
  after?: string | null;
}

/** Likes and replies of one of the user's own posts (the insights endpoint). */
export interface PostInsights {
  likes: number | null;
  replies: number | null;
}

/** What `debug_token` says about a token (threads-api.md section 1, token introspection). */
export interface TokenInfo {
  userId: string;
  /** The permissions the person granted with this token, e.g. threads_basic. */
  scopes: string[];
  expiresAt: Date | null;
}

/** A publishing container's state (threads-api.md section 10, publishing). */
export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'EXPIRED' | 'ERROR';

/** The token owner's publishing quota over the rolling 24 hours (`threads_publishing_limit`). */
export interface PublishingQuota {
  used: number;
  limit: number;
}

/** The part of the Threads API the product uses; the live client implements it over HTTP. */
export interface ThreadsGateway {
  /** One page of a keyword or topic-tag search (each call counts against the 2,200 per 24 h quota). */
  keywordSearch(accessToken: string, query: SearchQuery): Promise<PostPage>;
  /** A page of the token owner's own posts. */
  ownThreads(accessToken: string, after?: string | null): Promise<PostPage>;
  /**
   * One post by media id, or null when Threads will not return it (code 100, subcode 33). That is
   * not proof it was deleted: with standard access Meta answers the same for every post not made by
   * the app's own users (threads-api.md section 10, access levels). Only the author's own token makes
   * it evidence (decision 069).
   */
  post(accessToken: string, mediaId: string): Promise<ThreadsPost | null>;
  /** Insights of the token owner's own post (needs threads_manage_insights). */
  insights(accessToken: string, mediaId: string): Promise<PostInsights>;
  /** Who a token belongs to and what it was granted (`debug_token`). */
  debugToken(accessToken: string): Promise<TokenInfo>;
  /**
   * Publishing, step one: a text container on the token owner's account, quoting another post when
   * its media id is given. Returns the container's id (the creation id).
   */
  createTextContainer(
    accessToken: string,
    post: { text: string; quotePostId?: string | null },
  ): Promise<string>;
  /** A container's status: publish only FINISHED ones; EXPIRED and ERROR need a new container. */
  containerStatus(
    accessToken: string,
    creationId: string,
  ): Promise<{ status: ContainerStatus; errorMessage: string | null }>;
  /** Publishing, step two: publishes a container; returns the new post's id and permalink. */
  publishContainer(
    accessToken: string,
    creationId: string,
  ): Promise<{ id: string; permalink: string | null }>;
  /** How many of the 250 posts a day the token owner has used. */
  publishingQuota(accessToken: string): Promise<PublishingQuota>;
  /**
   * An app access token (client_credentials; threads-api.md section 1): proof that Threads accepts
   * the app id and secret. Never logged or shown.
   */
  appToken(): Promise<string>;
  /** Trades an authorization code for a short-lived token (1 hour). */
  exchangeCode(code: string, redirectUri: string): Promise<{ accessToken: string; userId: string }>;
  /** Trades a short-lived token for a long-lived one (60 days). */
  exchangeForLongLived(shortLivedToken: string): Promise<TokenGrant>;
  /** Renews a long-lived token that is at least 24 hours old and not expired. */
  refreshToken(longLivedToken: string): Promise<TokenGrant>;
  me(accessToken: string): Promise<ThreadsAccount>;
}

/**
 * invalid_token: expired or revoked (code 190), the person must sign in again. missing_permission:
 * the token lacks a scope or the app an access level (codes 10, 200-299). throttled: a rate limit
 * (codes 4, 17, 32, 613, HTTP 429). unavailable: Threads did not answer, or a transient fault (codes
 * 1, 2, HTTP 5xx). rejected: anything else Threads refused.
 */
export type ThreadsErrorKind =
  'invalid_token' | 'missing_permission' | 'throttled' | 'unavailable' | 'rejected';

/** Kinds a later attempt may cure by itself: never a reason to ask anyone to reconnect. */
export const TEMPORARY_KINDS: readonly ThreadsErrorKind[] = ['throttled', 'unavailable'];

/**
 * An error text from Threads, safe to log and show: long opaque runs (tokens, codes, secrets an
 * error body may echo back) are masked, and the whole is capped.
 */
export function redactSecrets(text: string): string {
  // A run with a digit (tokens, codes, hex secrets) or a very long one; permission names such as
  // threads_keyword_search stay readable.
  const masked = text.replace(/[A-Za-z0-9_\-.|%+/=]{16,}/g, (run) =>
    /\d/.test(run) || run.length >= 40 ? '[redacted]' : run,
  );
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
  /** Graph's error_subcode (33: the object does not exist or cannot be read with this access). */
  readonly subcode: number | null;
  /** Graph's error code (190 token, 4/17/32/613 throttling, 1/2 transient, 10 permission). */
  readonly code: number | null;
  /** Meta's trace id of the failed call: logged, so Meta support can find the request. */
  readonly fbtraceId: string | null;

  constructor(
    message: string,
    kind: ThreadsErrorKind,
    status: number | null,
    subcode: number | null = null,
    details: { code?: number | null; fbtraceId?: string | null } = {},
  ) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.subcode = subcode;
    this.code = details.code ?? null;
    this.fbtraceId = details.fbtraceId ?? null;
  }

  /** True when waiting and trying again may work (throttling, an outage). */
  get temporary(): boolean {
    return TEMPORARY_KINDS.includes(this.kind);
  }
}
