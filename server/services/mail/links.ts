import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a mailed link does: each purpose has its own signature, so one cannot stand in for another. */
export type MailLinkPurpose = 'confirm' | 'unsubscribe';

/**
 * The signature of a mailed link (decision 054): an HMAC of the purpose and the subscriber's id,
 * keyed from the token key, so no token is stored and every instance can check it. base64url, 43 chars.
 */
export function mailLinkSignature(key: Buffer, purpose: MailLinkPurpose, subscriberId: string): string {
  return createHmac('sha256', key).update(`mail-link:${purpose}:${subscriberId}`).digest('base64url');
}

/** Whether `signature` is the link's, compared in constant time. */
export function mailLinkValid(
  key: Buffer,
  purpose: MailLinkPurpose,
  subscriberId: string,
  signature: string,
): boolean {
  const expected = Buffer.from(mailLinkSignature(key, purpose, subscriberId));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The link's address on the API server: `GET` shows a page with a button, `POST` acts. */
export function mailLinkUrl(
  apiOrigin: URL,
  purpose: MailLinkPurpose,
  key: Buffer,
  subscriberId: string,
): string {
  const url = new URL(`/api/digest/${purpose}`, apiOrigin);
  url.searchParams.set('s', subscriberId);
  url.searchParams.set('t', mailLinkSignature(key, purpose, subscriberId));
  return url.toString();
}
