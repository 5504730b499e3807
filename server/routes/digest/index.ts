import type { FastifyPluginAsync } from 'fastify';
import {
  DIGEST_TEXTS,
  DigestSubscribeSchema,
  MailLinkSchema,
  mailLinkParts,
} from '../../../contract/digest.ts';
import { z } from '../../../contract/zod.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { acceptFormBodies } from '../../http/form-body.ts';
import { htmlPage, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { HttpError } from '../../http/http-error.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { followMailLink, subscribeToDigest } from '../../services/digest/subscriptions.ts';
import digestAdminRoutes from './admin.ts';
import { sendMailPage, mailLinkPage, mailResultPage } from '../../http/mail-pages.ts';

export interface DigestRoutesOptions {
  db: Database;
  config: Pick<Config, 'digest' | 'mail'>;
  tokenKey: Buffer;
  siteUrl: URL;
  /** Whether SMTP_URL is set: without it nobody can be mailed, so nobody may subscribe. */
  mailEnabled: boolean;
  rateLimitMultiplier: number;
}

const SubscribedSchema = z.object({ message: z.string() });

/**
 * The digest's mail subscription (decision 054): subscribe (double opt-in), and the pages and
 * actions of the mailed links, whose signatures are their CSRF defence: a mail app's one-click
 * unsubscribe (RFC 8058) posts from no page at all.
 */
const digestRoutes: FastifyPluginAsync<DigestRoutesOptions> = async (server, options) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const { db, tokenKey, siteUrl } = options;
  // A mail app's one-click unsubscribe posts the form body `List-Unsubscribe=One-Click`.
  acceptFormBodies(server, 1024);
  await app.register(digestAdminRoutes, { db, config: options.config });

  app.post(
    '/api/digest/subscribe',
    {
      config: { access: 'public', rateLimit: limit('digestSubscribe', options.rateLimitMultiplier) },
      schema: { body: DigestSubscribeSchema, response: { 200: htmlPage, 202: SubscribedSchema } },
    },
    async (request, reply) => {
      if (!options.mailEnabled) throw new HttpError(503, DIGEST_TEXTS.noMail);
      await subscribeToDigest(db, request.body.email);
      // The site's form posts without JavaScript: it gets a page in words, the API its JSON.
      if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
        return sendMailPage(
          reply,
          200,
          mailResultPage(DIGEST_TEXTS.subscribeTitle, DIGEST_TEXTS.checkInbox, siteUrl),
        );
      return reply.status(202).send({ message: DIGEST_TEXTS.checkInbox });
    },
  );

  for (const purpose of ['confirm', 'unsubscribe'] as const) {
    const path = `/api/digest/${purpose}`;
    const config = { access: 'public' as const, rateLimit: limit('mailLink', options.rateLimitMultiplier) };
    const schema = { querystring: MailLinkSchema, response: { 200: htmlPage, 400: htmlPage } };

    app.get(path, { config, schema }, async (request, reply) => {
      // A link cut short shows what is wrong in words, and no button that could only fail.
      const parts = mailLinkParts(request.query);
      if (!parts)
        return sendMailPage(
          reply,
          400,
          mailResultPage(DIGEST_TEXTS.confirmTitle, DIGEST_TEXTS.badLink, siteUrl),
        );
      const action = `${path}?${new URLSearchParams(parts).toString()}`;
      return sendMailPage(reply, 200, mailLinkPage(purpose, action, siteUrl));
    });

    app.post(path, { config: { ...config, crossSite: true }, schema }, async (request, reply) => {
      const outcome = await followMailLink(db, tokenKey, purpose, request.query);
      if (outcome === 'invalid')
        return sendMailPage(
          reply,
          400,
          mailResultPage(DIGEST_TEXTS.confirmTitle, DIGEST_TEXTS.badLink, siteUrl),
        );
      const [title, text] =
        purpose === 'confirm'
          ? [DIGEST_TEXTS.confirmTitle, DIGEST_TEXTS.confirmed]
          : [DIGEST_TEXTS.unsubscribeTitle, DIGEST_TEXTS.unsubscribed];
      return sendMailPage(reply, 200, mailResultPage(title, text, siteUrl));
    });
  }
};

export default digestRoutes;
