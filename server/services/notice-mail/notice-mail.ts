import { createHmac } from 'node:crypto';
import { mailLinkParts } from '../../../contract/digest.ts';
import type { NoticeMailState } from '../../../contract/notice-mail.ts';
import type { Database } from '../../db/client.ts';
import { createMailSendsRepository } from '../../repositories/mail-sends.ts';
import {
  createNoticeMailAddressesRepository,
  type NoticeAddressRow,
} from '../../repositories/notice-mail-addresses.ts';
import { mailLinkValid } from '../mail/links.ts';

/** What the profile shows of a member's notice mail. */
export function noticeMailState(row: NoticeAddressRow | null, available: boolean): NoticeMailState {
  return {
    available,
    address: row?.email ?? null,
    enabled: row?.enabled ?? false,
    confirmed: Boolean(row?.confirmedAt),
  };
}

/**
 * The id of a member's address row: an HMAC of member and address keyed by the token key, so the
 * same address of the same member always gets the same id (a member going A -> B -> A finds A's
 * confirmation mail still confirming A), while the log, which keeps the id after the address is
 * deleted, cannot be matched against a guessed address without the key. A UUID of version 8
 * (RFC 9562's custom layout).
 */
export function noticeAddressId(tokenKey: Buffer, userId: string, email: string): string {
  const bytes = createHmac('sha256', tokenKey).update(`notice-address:${userId}:${email}`).digest();
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Stores the member's address and choice (decision 058) and, while the address is unconfirmed,
 * queues its confirmation mail: one transaction, and at most one confirmation per member and
 * address a day, however often they switch to another address and back (decision 067): the key
 * names the address's row, whose id the member and address decide. Returns the row and whether a
 * confirmation was queued now.
 */
export async function saveNoticeMail(
  db: Database,
  tokenKey: Buffer,
  { userId, email, enabled }: { userId: string; email: string; enabled: boolean },
  now = new Date(),
): Promise<{ row: NoticeAddressRow; confirmationQueued: boolean }> {
  return db.transaction(async (tx) => {
    const id = noticeAddressId(tokenKey, userId, email);
    const row = await createNoticeMailAddressesRepository(db).save({ id, userId, email, enabled }, tx);
    if (row.confirmedAt) return { row, confirmationQueued: false };
    const day = now.toISOString().slice(0, 10);
    const confirmationQueued = await createMailSendsRepository(db).enqueueNoticeConfirmation(
      `notice-confirm:${row.id}:${day}`,
      row.id,
      tx,
    );
    return { row, confirmationQueued };
  });
}

/**
 * Follows a mailed notice link once its signature checks out: confirm the address, or delete it.
 * Unsubscribing twice (a mail app's one click, then the page) is still done: the address is gone.
 */
export async function followNoticeMailLink(
  db: Database,
  tokenKey: Buffer,
  purpose: 'notice-confirm' | 'notice-unsubscribe',
  query: { s?: string | undefined; t?: string | undefined },
): Promise<'done' | 'invalid'> {
  const link = mailLinkParts(query);
  if (!link || !mailLinkValid(tokenKey, purpose, link.s, link.t)) return 'invalid';
  const addresses = createNoticeMailAddressesRepository(db);
  if (purpose === 'notice-confirm') return (await addresses.confirm(link.s)) ? 'done' : 'invalid';
  await addresses.remove(link.s);
  return 'done';
}
