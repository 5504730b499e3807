/**
 * The notice mails (decision 058): the address's confirmation, and one mail per notice. A text part
 * and an HTML part each, like the digest's (compose.ts); every stored value reaches the HTML escaped.
 */
import { NOTICE_MAIL_SUBJECTS } from '../../../contract/notice-mail.ts';
import { noticeText, type NoticeDetails } from '../../../contract/notices.ts';
import { SITE } from '../../../contract/site.ts';
import { escapeHtml } from '../../http/html-escape.ts';
import type { NoticeRow } from '../../repositories/notices.ts';
import { mailLink, mailPage, oneClickHeaders, type Mail } from './compose.ts';

/** The double opt-in of a member's notice address: one link; nothing is sent if it is not followed. */
export function noticeConfirmMail(confirmUrl: string): Mail {
  const subject = `Confirm your address for ${SITE.title} notices`;
  const lead = `Someone (hopefully you) asked for their ${SITE.title} notices at this address.`;
  const ignore = 'If it was not you, ignore this mail: nothing more will be sent.';
  const text = [lead, '', `Confirm here: ${confirmUrl}`, '', ignore].join('\n');
  const html = mailPage(
    subject,
    `<p>${escapeHtml(lead)}</p><p>${mailLink(confirmUrl, 'Confirm my address')}</p><p>${escapeHtml(ignore)}</p>`,
  );
  return { subject, text, html, headers: {} };
}

/**
 * One notice: its sentence (with the reason, when there is one), the thread's first words and link,
 * the site, and how to stop these mails. RFC 8058's headers make 'Unsubscribe' one click in mail apps.
 */
export function noticeMail(
  notice: Pick<NoticeRow, 'kind' | 'details'>,
  urls: { site: URL; unsubscribe: string },
): Mail {
  const details = notice.details as NoticeDetails;
  const subject = NOTICE_MAIL_SUBJECTS[notice.kind];
  const sentence = noticeText(notice.kind, details);
  const excerpt = details.excerpt?.trim() || null;
  const permalink = details.permalink ?? null;
  const site = urls.site.toString();
  const text = [
    sentence,
    '',
    ...(excerpt ? [`The thread: "${excerpt}"`] : []),
    ...(permalink ? [`On Threads: ${permalink}`] : []),
    ...(excerpt || permalink ? [''] : []),
    `Your notices on ${SITE.title}: ${site}`,
    `Stop these mails: ${urls.unsubscribe}`,
  ].join('\n');
  const html = mailPage(
    subject,
    `<h1 style="font-size:1.25rem">${escapeHtml(subject)}</h1>` +
      `<p>${escapeHtml(sentence)}</p>` +
      (excerpt ? `<blockquote>${escapeHtml(excerpt)}</blockquote>` : '') +
      (permalink ? `<p>${mailLink(permalink, 'The thread on Threads')}</p>` : '') +
      `<p>${mailLink(site, `Your notices on ${SITE.title}`)}</p>` +
      `<p style="color:#555">${mailLink(urls.unsubscribe, 'Unsubscribe')}: one click, no more notice mails, and your address is deleted.</p>`,
  );
  return {
    subject,
    text,
    html,
    headers: oneClickHeaders(urls.unsubscribe),
  };
}
