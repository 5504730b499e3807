import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { MailLinkSchema, mailLinkParts } from '../../../contract/digest.ts';
import {
  NOTICE_MAIL_TEXTS,
  NoticeMailSaveSchema,
  NoticeMailStateSchema,
  type NoticeMailState,
} from '../../../contract/notice-mail.ts';
import type { Database } from '../../db/client.ts';
import { acceptFormBodies } from '../../http/form-body.ts';
import { HttpError } from '../../http/http-error.ts';
import { htmlPage, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { createNoticeMailAddressesRepository } from '../../repositories/notice-mail-addresses.ts';
import {
  followNoticeMailLink,
  noticeMailState,
  saveNoticeMail,
} from '../../services/notice-mail/notice-mail.ts';
import { sendMailPage, mailButtonPage, mailResultPage } from '../../http/mail-pages.ts';

export interface NoticeMailRoutesOptions {
  db: Database;
  tokenKey: Buffer;
  siteUrl: URL;
  /** Whether SMTP_URL is set: without it nothing can be mailed, so no address is taken. */
  mailEnabled: boolean;
  rateLimitMultiplier: number;
}

/**
 * A member's notices by e-mail (decision 058): their address and choice on /profile, and the pages
 * and actions of the mailed links, whose signatures are their CSRF defence (a mail app's one-click
 * unsubscribe posts from no page at all). Any signed-in user, like the notices themselves.
 */
const noticeMailRoutes: FastifyPluginAsync<NoticeMailRoutesOptions> = async (server, options) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const { db, tokenKey, siteUrl, mailEnabled } = options;
  const addresses = createNoticeMailAddressesRepository(db);
  acceptFormBodies(server, 1024);

  const access = { access: 'user' as const };
  const state = { response: { 200: NoticeMailStateSchema } };
  app.get(
    '/api/user/notice-mail',
    { config: access, schema: state },
    async (request): Promise<NoticeMailState> =>
      noticeMailState(await addresses.ofUser((await request.authUser()).id), mailEnabled),
  );

  app.put(
    '/api/user/notice-mail',
    {
      config: { ...access, rateLimit: limit('noticeMailSave', options.rateLimitMultiplier) },
      schema: { body: NoticeMailSaveSchema, response: { 200: NoticeMailStateSchema } },
    },
    async (request): Promise<NoticeMailState> => {
      if (!mailEnabled) throw new HttpError(503, NOTICE_MAIL_TEXTS.noMail);
      const user = await request.authUser();
      const { email, enabled } = request.body;
      const { row } = await saveNoticeMail(db, tokenKey, { userId: user.id, email, enabled });
      // The same words whether or not a mail was queued now: at most one a day goes to an address.
      const message = row.confirmedAt ? NOTICE_MAIL_TEXTS.saved : NOTICE_MAIL_TEXTS.checkInbox;
      return { ...noticeMailState(row, mailEnabled), message };
    },
  );

  app.delete(
    '/api/user/notice-mail',
    { config: access, schema: state },
    async (request): Promise<NoticeMailState> => {
      await addresses.removeOfUser((await request.authUser()).id);
      return { ...noticeMailState(null, mailEnabled), message: NOTICE_MAIL_TEXTS.removed };
    },
  );

  const pages = {
    confirm: {
      purpose: 'notice-confirm',
      title: NOTICE_MAIL_TEXTS.confirmTitle,
      button: NOTICE_MAIL_TEXTS.confirmButton,
      done: NOTICE_MAIL_TEXTS.confirmed,
    },
    unsubscribe: {
      purpose: 'notice-unsubscribe',
      title: NOTICE_MAIL_TEXTS.unsubscribeTitle,
      button: NOTICE_MAIL_TEXTS.unsubscribeButton,
      done: NOTICE_MAIL_TEXTS.unsubscribed,
    },
  } as const;
  for (const [name, words] of Object.entries(pages)) {
    const path = `/api/notice-mail/${name}`;
    const config = { access: 'public' as const, rateLimit: limit('mailLink', options.rateLimitMultiplier) };
    const schema = { querystring: MailLinkSchema, response: { 200: htmlPage, 400: htmlPage } };
    const invalid = (reply: FastifyReply) =>
      sendMailPage(reply, 400, mailResultPage(words.title, NOTICE_MAIL_TEXTS.badLink, siteUrl));

    // GET only shows the button: a mail scanner that opens links confirms or stops nothing.
    app.get(path, { config, schema }, async (request, reply) => {
      const parts = mailLinkParts(request.query);
      if (!parts) return invalid(reply);
      const action = `${path}?${new URLSearchParams(parts).toString()}`;
      return sendMailPage(reply, 200, mailButtonPage(words.title, words.button, action, siteUrl));
    });

    app.post(path, { config: { ...config, crossSite: true }, schema }, async (request, reply) => {
      const outcome = await followNoticeMailLink(db, tokenKey, words.purpose, request.query);
      if (outcome === 'invalid') return invalid(reply);
      return sendMailPage(reply, 200, mailResultPage(words.title, words.done, siteUrl));
    });
  }
};

export default noticeMailRoutes;
