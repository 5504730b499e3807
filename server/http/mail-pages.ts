/**
 * The pages a mailed link opens (decision 054), served by the API: plain HTML, nothing to load.
 * A link's GET only shows a button; the button's POST acts, so a mail scanner that follows links
 * confirms or unsubscribes nobody.
 */
import type { FastifyReply } from 'fastify';
import { DIGEST_TEXTS } from '../../contract/digest.ts';
import { SITE } from '../../contract/site.ts';
import { escapeHtml } from './html-escape.ts';

/** Nothing may load; the one form posts back here. */
export const MAIL_PAGE_CSP =
  "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Answers with a mail link's page, under the CSP that lets nothing load. */
export function sendMailPage(reply: FastifyReply, status: number, body: string) {
  return reply
    .status(status)
    .header('Content-Security-Policy', MAIL_PAGE_CSP)
    .type('text/html; charset=utf-8')
    .send(body);
}

function page(title: string, body: string, siteUrl: URL): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · ${escapeHtml(SITE.title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="${escapeHtml(siteUrl.toString())}">Back to ${escapeHtml(SITE.title)}</a></p></main></body>
</html>
`;
}

/** The page behind a mailed link: its one button posts the same address back. */
export function mailLinkPage(purpose: 'confirm' | 'unsubscribe', action: string, siteUrl: URL): string {
  const title = purpose === 'confirm' ? DIGEST_TEXTS.confirmTitle : DIGEST_TEXTS.unsubscribeTitle;
  const button = purpose === 'confirm' ? DIGEST_TEXTS.confirmButton : DIGEST_TEXTS.unsubscribeButton;
  return mailButtonPage(title, button, action, siteUrl);
}

/** A page with a title and one button that posts to `action` (the notice mail's links use it too). */
export function mailButtonPage(title: string, button: string, action: string, siteUrl: URL): string {
  return page(
    title,
    `<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(button)}</button></form>`,
    siteUrl,
  );
}

/** A page that only says what happened. */
export function mailResultPage(title: string, text: string, siteUrl: URL): string {
  return page(title, `<p role="status">${escapeHtml(text)}</p>`, siteUrl);
}
