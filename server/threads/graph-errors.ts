import { ThreadsApiError, type ThreadsErrorKind } from './gateway.ts';

/** Graph's error envelope (threads-api.md section 7), and the older `error_message` shape. */
export interface GraphErrorBody {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
  error_message?: string;
}

/** Graph's throttling codes (threads-api.md section 7): application, user, page and custom level. */
const THROTTLING_CODES = new Set([4, 17, 32, 613]);
/** Graph's transient codes: an unknown or temporary fault, worth trying again. */
const TRANSIENT_CODES = new Set([1, 2]);

/** Graph refusing a credential: "Error validating client secret / verification code / access token". */
const VALIDATION_REFUSAL = /^error validating /i;

/** What a refusal means for the caller (threads-api.md sections 7 and 10, errors). */
export function errorKind(status: number, body: GraphErrorBody): ThreadsErrorKind {
  const code = body.error?.code;
  const message = body.error?.message ?? '';
  if (status === 429 || (code !== undefined && THROTTLING_CODES.has(code))) return 'throttled';
  // Graph also sends code 1 with "Error validating client secret.": a refusal, not a blip.
  const transient = code !== undefined && TRANSIENT_CODES.has(code) && !VALIDATION_REFUSAL.test(message);
  if (status >= 500 || transient) return 'unavailable';
  // Code 190 is an invalid or expired token, also when Graph words it without the code.
  if (code === 190 || /^error validating access token/i.test(message)) return 'invalid_token';
  // Code 10 and 200-299: the permission is not granted to the token or not approved for the app.
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) return 'missing_permission';
  return 'rejected';
}

export interface RetryOptions {
  /** Tries in all, the first included. */
  attempts: number;
  /** The first wait; each further one doubles (with jitter). */
  baseDelayMs: number;
}

/** Three tries over about three seconds: long enough for a blip, short enough for a sign-in. */
export const DEFAULT_RETRY: RetryOptions = { attempts: 3, baseDelayMs: 1000 };

/**
 * The wait before retry number `retry` (1-based): the doubled base with "equal jitter", a random
 * point in its upper half, so clients throttled together do not come back together.
 */
export function backoffDelay(retry: number, baseDelayMs: number, random: () => number = Math.random): number {
  const ceiling = baseDelayMs * 2 ** (retry - 1);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, tries again after a backoff while it fails with a temporary
 * ThreadsApiError (throttled, unavailable), and rethrows the last error with its kind. Nothing
 * else Graph might send (X-App-Usage and the like) is trusted: threads-api.md section 7 finds no
 * Threads promise for it.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  { attempts, baseDelayMs }: RetryOptions,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ThreadsApiError) || !error.temporary || tried >= attempts) throw error;
      await wait(backoffDelay(tried, baseDelayMs));
    }
  }
}
