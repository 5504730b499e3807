import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a mailed link does: each purpose has its own signature, so one cannot stand in for another.
 * The notice ones (decision 058) sign a notice address's id, the others a digest subscriber's.
 */
export type MailLinkPurpose = 'confirm' | 'unsubscribe' | 'notice-confirm' | 'notice-unsubscribe';

/** Where each purpose's link points on the API server. */
const LINK_PATHS: Record<MailLinkPurpose, string> = {
  confirm: '/api/digest/confirm',
  unsubscribe: '/api/digest/unsubscribe',
  'notice-confirm': '/api/notice-mail/confirm',
  'notice-unsubscribe': '/api/notice-mail/unsubscribe',
};

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
  const url = new URL(LINK_PATHS[purpose], apiOrigin);
  url.searchParams.set('s', subscriberId);
  url.searchParams.set('t', mailLinkSignature(key, purpose, subscriberId));
  return url.toString();
}
