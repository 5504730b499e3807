import type { FastifyPluginAsync } from 'fastify';
import {
  NOTICE_TEXTS,
  NoticePageQuerySchema,
  NoticePageSchema,
  NoticeReadSchema,
  NOTICES_PAGE_MAX,
  NoticeUnreadSchema,
  type NoticePage,
  type NoticeUnread,
} from '../../../contract/notices.ts';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { createNoticesRepository } from '../../repositories/notices.ts';
import { toNotice } from '../../views/notice-views.ts';

/**
 * A signed-in person's notices (issue 22, decision 056): decisions on their invite and submissions
 * and gems that left. Any signed-in user, as a declined invite is told to someone who is no member;
 * each reads and marks only their own.
 */
const noticeRoutes: FastifyPluginAsync<{ db: Database }> = async (server, { db }) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const notices = createNoticesRepository(db);
  const access = { access: 'user' as const };

  const page = { querystring: NoticePageQuerySchema, response: { 200: NoticePageSchema } };
  app.get('/api/user/notices', { config: access, schema: page }, async (request): Promise<NoticePage> => {
    const user = await request.authUser();
    const before = request.query.before === undefined ? null : Number(request.query.before);
    // One more than a page tells whether older ones remain.
    const rows = await notices.page(user.id, before, NOTICES_PAGE_MAX + 1);
    const shown = rows.slice(0, NOTICES_PAGE_MAX);
    return {
      notices: shown.map(toNotice),
      unread: await notices.unreadCount(user.id),
      next_before: rows.length > NOTICES_PAGE_MAX ? (shown.at(-1)?.id ?? null) : null,
    };
  });

  const unread = { response: { 200: NoticeUnreadSchema } };
  app.get(
    '/api/user/notices/unread',
    { config: access, schema: unread },
    async (request): Promise<NoticeUnread> => ({
      unread: await notices.unreadCount((await request.authUser()).id),
    }),
  );

  const read = { body: NoticeReadSchema, response: { 200: NoticeUnreadSchema } };
  app.post(
    '/api/user/notices/read',
    { config: access, schema: read },
    async (request): Promise<NoticeUnread> => {
      const user = await request.authUser();
      const { id, up_to: upTo } = request.body;
      if ((id === undefined) === (upTo === undefined)) throw new HttpError(400, NOTICE_TEXTS.readBody);
      // Another member's id, or one that does not exist, marks nothing: the answer is the same count.
      await notices.markRead(user.id, id === undefined ? { upTo: upTo as number } : { id });
      return { unread: await notices.unreadCount(user.id) };
    },
  );
};

export default noticeRoutes;
