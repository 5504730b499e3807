/**
 * What the send-mail job sends for a member's notice address (decision 058): its confirmation, and
 * each notice queued with its decision. Apart from send-queued.ts, which claims, sends and logs.
 */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { NOTICE_ADDRESS_GONE, type MailSendRow } from '../../repositories/mail-sends.ts';
import { createNoticeMailAddressesRepository } from '../../repositories/notice-mail-addresses.ts';
import { createNoticesRepository } from '../../repositories/notices.ts';
import type { Mail } from './compose.ts';
import { noticeConfirmMail, noticeMail } from './compose-notices.ts';
import { mailLinkUrl } from './links.ts';

/** A message ready to go: to whom (read now, never stored in the log) and what. */
export interface Prepared {
  to: string;
  mail: Mail;
}

export interface NoticeMailContext {
  addresses: ReturnType<typeof createNoticeMailAddressesRepository>;
  notices: ReturnType<typeof createNoticesRepository>;
  site: URL;
  api: URL;
  tokenKey: Buffer;
}

export function noticeMailContext(deps: {
  db: Database;
  config: Pick<Config, 'publicUrl' | 'apiBaseUrl'>;
  tokenKey: Buffer;
}): NoticeMailContext {
  return {
    addresses: createNoticeMailAddressesRepository(deps.db),
    notices: createNoticesRepository(deps.db),
    site: deps.config.publicUrl,
    api: new URL(String(deps.config.apiBaseUrl ?? deps.config.publicUrl)),
    tokenKey: deps.tokenKey,
  };
}

/**
 * The address and mail of a notice or notice confirmation, or why it is not sent: the address was
 * removed, changed, turned off or never confirmed, or the notice was taken back since it was queued.
 */
export async function prepareNoticeMail(
  run: NoticeMailContext,
  row: MailSendRow,
): Promise<Prepared | string> {
  const address = row.noticeAddressId ? await run.addresses.find(row.noticeAddressId) : null;
  if (!address) return NOTICE_ADDRESS_GONE;
  if (row.kind === 'notice_confirm') {
    const url = mailLinkUrl(run.api, 'notice-confirm', run.tokenKey, address.id);
    return { to: address.email, mail: noticeConfirmMail(url) };
  }
  if (!address.confirmedAt) return 'the address is not confirmed';
  if (!address.enabled) return 'the member turned notice mail off before it was sent';
  const notice = row.noticeId ? await run.notices.find(row.noticeId) : null;
  if (!notice || notice.userId !== address.userId) return 'its notice was taken back before it was sent';
  const unsubscribe = mailLinkUrl(run.api, 'notice-unsubscribe', run.tokenKey, address.id);
  return { to: address.email, mail: noticeMail(notice, { site: run.site, unsubscribe }) };
}
