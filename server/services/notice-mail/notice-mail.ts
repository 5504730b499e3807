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
 * Stores the member's address and choice (decision 058) and, while the address is unconfirmed, queues
 * its confirmation mail: one transaction, and at most one confirmation per address a day (the key
 * names the address's row, which a new address replaces). Returns the row and whether one was queued.
 */
export async function saveNoticeMail(
  db: Database,
  userId: string,
  email: string,
  enabled: boolean,
  now = new Date(),
): Promise<{ row: NoticeAddressRow; confirmationQueued: boolean }> {
  return db.transaction(async (tx) => {
    const row = await createNoticeMailAddressesRepository(db).save(userId, email, enabled, tx);
    if (row.confirmedAt) return { row, confirmationQueued: false };
    const day = now.toISOString().slice(0, 10);
    const confirmationQueued = await createMailSendsRepository(db).enqueue(
      { kind: 'notice_confirm', dedupeKey: `notice-confirm:${row.id}:${day}`, noticeAddressId: row.id },
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
