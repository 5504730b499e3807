/**
 * The mails themselves (decision 054): a text part and an HTML part each, plain and short. Every
 * value from the database reaches the HTML through escapeHtml / escapeUrl.
 */
import { digestPath } from '../../../contract/digest.ts';
import { SITE } from '../../../contract/site.ts';
import { threadPath } from '../../../contract/thread-page.ts';
import { embedTitle, type PostDisplay } from '../../../contract/threads-embed.ts';
import { escapeHtml, escapeUrl } from '../../http/html-escape.ts';
import type { DigestRow, DigestThread } from '../../repositories/digests.ts';

export interface Mail {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe on the digest). */
  headers: Record<string, string>;
}

/** A mail's HTML part: the body in a plain page that every mail app shows alike (inline style only). */
export function mailPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:0 auto;padding:1rem;line-height:1.5;color:#1c1c1e">${body}</body></html>`;
}

/** A link in a mail, or the bare words when the address is not one we would link to. */
export function mailLink(href: string, text: string): string {
  const safe = escapeUrl(href);
  return safe ? `<a href="${safe}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

/** RFC 8058 one-click unsubscribe: mail apps show 'Unsubscribe' and post to it themselves. */
export function oneClickHeaders(unsubscribe: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The double opt-in: one link, and what happens when it is not followed (nothing). */
export function confirmMail(confirmUrl: string): Mail {
  const subject = `Confirm your ${SITE.title} weekly digest`;
  const text = [
    `Someone (hopefully you) asked for the ${SITE.title} weekly digest at this address.`,
    '',
    `Confirm here: ${confirmUrl}`,
    '',
    'If it was not you, ignore this mail: nothing more will be sent.',
  ].join('\n');
  const html = mailPage(
    subject,
    `<p>Someone (hopefully you) asked for the ${escapeHtml(SITE.title)} weekly digest at this address.</p>` +
      `<p>${mailLink(confirmUrl, 'Confirm my subscription')}</p>` +
      '<p>If it was not you, ignore this mail: nothing more will be sent.</p>',
  );
  return { subject, text, html, headers: {} };
}

/** Who wrote a thread, in words (the mail and the admin's draft). */
export function byline(thread: DigestThread): string {
  if (thread.authorName && thread.username) return `${thread.authorName} (@${thread.username})`;
  return thread.username ? `@${thread.username}` : (thread.authorName ?? 'Someone on Threads');
}

/** The first words of a thread's text, at most `max` characters. */
export function excerpt(text: string, max = 220): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A thread as the digest lists it. `display` 'embed' (decision 070): the public sees its author's
 * post only through Threads' embed, which a mail cannot run, so the mail names it by its permalink
 * and links to it, with no byline or excerpt from our copy.
 */
export type DigestMailItem = DigestThread & { display?: PostDisplay | undefined };

/** One item: its heading (who, or whose for an embed), the text lines under it, its HTML. */
function digestItem(thread: DigestMailItem, site: URL): { head: string; lines: string[]; html: string } {
  const page = new URL(threadPath(thread.id), site).toString();
  const links = `${mailLink(page, 'Read it here')} · ${mailLink(thread.permalink, 'on Threads')}`;
  if (thread.display === 'embed') {
    const title = embedTitle(thread.permalink);
    return {
      head: title,
      lines: [page, thread.permalink],
      html: `<li style="margin-bottom:1rem"><strong>${escapeHtml(title)}</strong><br>${links}</li>`,
    };
  }
  return {
    head: byline(thread),
    lines: [excerpt(thread.text), page],
    html:
      `<li style="margin-bottom:1rem"><strong>${escapeHtml(byline(thread))}</strong><br>` +
      `${escapeHtml(excerpt(thread.text))}<br>${links}</li>`,
  };
}

/**
 * A week's digest: the editor's note, then each thread (author, first words, its page here and on
 * Threads), then how to stop it. RFC 8058's headers make 'Unsubscribe' one click in mail apps.
 */
export function digestMail(
  digest: Pick<DigestRow, 'id' | 'note'>,
  items: readonly DigestMailItem[],
  urls: { site: URL; unsubscribe: string },
): Mail {
  const subject = `${SITE.title}: the week's best, ${digest.id}`;
  const pageUrl = new URL(digestPath(digest.id), urls.site).toString();
  const note = digest.note.trim();
  const listed = items.map((thread) => digestItem(thread, urls.site));
  const textItems = listed.map(({ head, lines }, index) =>
    [`${index + 1}. ${head}`, ...lines.map((line) => `   ${line}`)].join('\n'),
  );
  const text = [
    subject,
    '',
    ...(note ? [note, ''] : []),
    ...textItems.flatMap((item) => [item, '']),
    `On the site: ${pageUrl}`,
    `Stop these mails: ${urls.unsubscribe}`,
  ].join('\n');
  const html = mailPage(
    subject,
    `<h1 style="font-size:1.25rem">${escapeHtml(subject)}</h1>` +
      (note ? `<p>${escapeHtml(note)}</p>` : '') +
      `<ol>${listed.map((item) => item.html).join('')}</ol>` +
      `<p>${mailLink(pageUrl, 'This digest on the site')}</p>` +
      `<p style="color:#555">${mailLink(urls.unsubscribe, 'Unsubscribe')}: one click, and your address is deleted.</p>`,
  );
  return {
    subject,
    text,
    html,
    headers: oneClickHeaders(urls.unsubscribe),
  };
}
