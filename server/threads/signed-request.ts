import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a signed_request was refused; the message is safe to log (it never contains the secret). */
export class SignedRequestError extends Error {
  override name = 'SignedRequestError';
}

export interface SignedRequestPayload {
  /** The app-scoped Threads user id, as a string. */
  userId: string;
  issuedAt: number | null;
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
    payload = JSON.parse(decode(payloadPart, 'payload').toString('utf8')) as typeof payload;
  } catch (error) {
    if (error instanceof SignedRequestError) throw error;
    throw new SignedRequestError('The payload is not JSON.');
  }
  if (typeof payload !== 'object' || payload === null)
    throw new SignedRequestError('The payload is not an object.');
  if (typeof payload.algorithm !== 'string' || payload.algorithm.toUpperCase() !== 'HMAC-SHA256') {
    throw new SignedRequestError('The algorithm is not HMAC-SHA256.');
  }
  const nowSeconds = Math.floor(now / 1000);
  const payloadTimes = payload as { issued_at?: unknown; expires?: unknown };
  if (
    typeof payloadTimes.expires === 'number' &&
    payloadTimes.expires > 0 &&
    payloadTimes.expires <= nowSeconds
  ) {
    throw new SignedRequestError('The signed_request has expired.');
  }
  if (typeof payloadTimes.issued_at === 'number') {
    if (nowSeconds - payloadTimes.issued_at > MAX_AGE_SECONDS)
      throw new SignedRequestError('The signed_request is too old.');
    if (payloadTimes.issued_at - nowSeconds > MAX_SKEW_SECONDS)
      throw new SignedRequestError('The signed_request is from the future.');
  }
  const userId = typeof payload.user_id === 'number' ? String(payload.user_id) : payload.user_id;
  if (typeof userId !== 'string' || !/^\d{1,32}$/.test(userId))
    throw new SignedRequestError('The payload has no user id.');
  return { userId, issuedAt: typeof payload.issued_at === 'number' ? payload.issued_at : null };
}

/** Signs a payload the way Meta does: for the simulated provider and for tests. */
export function signRequest(payload: Record<string, unknown>, appSecret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${createHmac('sha256', appSecret).update(body).digest('base64url')}.${body}`;
}
