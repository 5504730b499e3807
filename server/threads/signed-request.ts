import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a signed_request was refused; the message is safe to log (it never contains the secret). */
export class SignedRequestError extends Error {
  override name = 'SignedRequestError';
}

export interface SignedRequestPayload {
  /** The app-scoped Threads user id, as a string. */
  userId: string;
  /** When Meta issued it (Unix seconds); required, within the last day. */
  issuedAt: number;
}

const MAX_LENGTH = 4096;
/** A callback older than this is a replay: Meta sends them as the person removes the app. */
const MAX_AGE_SECONDS = 24 * 3600;
/** Clocks differ a little; a request from further in the future than this is refused. */
const MAX_SKEW_SECONDS = 5 * 60;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function decode(segment: string, what: string): Buffer {
  if (!BASE64URL.test(segment)) throw new SignedRequestError(`The ${what} is not base64url.`);
  return Buffer.from(segment.replace(/=+$/, ''), 'base64url');
}

/**
 * Verifies Meta's `signed_request` (threads-api.md section 6): `base64url(signature).base64url(payload)`,
 * the signature being HMAC-SHA256 of the payload segment exactly as received, with the app secret.
 * Compared in constant time; any other algorithm is refused. Padded and unpadded base64url are accepted.
 */
export function verifySignedRequest(
  signedRequest: string,
  appSecret: string,
  now = Date.now(),
): SignedRequestPayload {
  if (signedRequest.length > MAX_LENGTH) throw new SignedRequestError('The signed_request is too long.');
  const parts = signedRequest.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw new SignedRequestError('The signed_request has no signature and payload.');
  const [signaturePart, payloadPart] = parts as [string, string];
  const signature = decode(signaturePart, 'signature');
  const expected = createHmac('sha256', appSecret).update(payloadPart).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
    throw new SignedRequestError('The signature does not match.');
  }
  let payload: { algorithm?: unknown; user_id?: unknown; issued_at?: unknown; expires?: unknown };
  try {
    payload = JSON.parse(decode(payloadPart, 'payload').toString('utf8'), exactUserId) as typeof payload;
  } catch (error) {
    if (error instanceof SignedRequestError) throw error;
    throw new SignedRequestError('The payload is not JSON.');
  }
  if (typeof payload !== 'object' || payload === null)
    throw new SignedRequestError('The payload is not an object.');
  if (typeof payload.algorithm !== 'string' || payload.algorithm.toUpperCase() !== 'HMAC-SHA256') {
    throw new SignedRequestError('The algorithm is not HMAC-SHA256.');
  }
  return { userId: userIdOf(payload.user_id), issuedAt: issuedAtOf(payload, now) };
}

/** How a numeric user id is written in the raw JSON: plain digits, as many as an id can have. */
const NUMERIC_ID = /^\d{1,20}$/;

/**
 * A JSON.parse reviver that keeps a numeric `user_id` as the digits it was written with: JSON.parse
 * rounds a number above 2^53 (16 digits; ids have 17) to another person's id. Node 24 hands revivers
 * the raw text of a primitive as `context.source`. Any other number form (sign, fraction, exponent,
 * more than 20 digits) stays a number and is refused by userIdOf. Nested `user_id`s are never read.
 */
function exactUserId(key: string, value: unknown, context?: { source?: string }): unknown {
  if (key !== 'user_id' || typeof value !== 'number') return value;
  const source = context?.source;
  return source !== undefined && NUMERIC_ID.test(source) ? source : value;
}

/**
 * The user id: a JSON string of digits, or a JSON number of up to 20 digits read from the raw text
 * (decision 068). Meta documents it as a string (threads-api.md section 6) but says nothing of the
 * JSON type, and debug_token sends its user_id as a number (decision 026): both forms are the same id.
 */
function userIdOf(value: unknown): string {
  if (typeof value === 'number')
    throw new SignedRequestError('The user id must be a string or a whole number of up to 20 digits.');
  if (typeof value !== 'string' || !/^\d{1,32}$/.test(value))
    throw new SignedRequestError('The payload has no user id.');
  return value;
}

/** A request must say when it was issued, within the last day and not from the future: no replays. */
function issuedAtOf(times: { issued_at?: unknown; expires?: unknown }, now: number): number {
  const nowSeconds = Math.floor(now / 1000);
  if (typeof times.expires === 'number' && times.expires > 0 && times.expires <= nowSeconds) {
    throw new SignedRequestError('The signed_request has expired.');
  }
  const issuedAt = times.issued_at;
  if (typeof issuedAt !== 'number' || !Number.isSafeInteger(issuedAt) || issuedAt <= 0)
    throw new SignedRequestError('The payload has no issued_at time.');
  if (nowSeconds - issuedAt > MAX_AGE_SECONDS) throw new SignedRequestError('The signed_request is too old.');
  if (issuedAt - nowSeconds > MAX_SKEW_SECONDS)
    throw new SignedRequestError('The signed_request is from the future.');
  return issuedAt;
}

/**
 * Signs a payload the way Meta does: for the simulated provider and for tests. A string is signed as
 * the JSON text it is (tests use it for numbers JSON.stringify cannot write, such as ids above 2^53).
 */
export function signRequest(payload: Record<string, unknown> | string, appSecret: string): string {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const body = Buffer.from(text).toString('base64url');
  return `${createHmac('sha256', appSecret).update(body).digest('base64url')}.${body}`;
}
