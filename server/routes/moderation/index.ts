import type { FastifyPluginAsync } from 'fastify';
import {
  BAD_MODERATION_CURSOR as BAD_CURSOR,
  MODERATION_LOG_PAGE_SIZE,
  ModerationLogPageSchema,
  ModerationLogQuerySchema,
  type ModerationLogPage,
} from '../../../contract/moderation-log.ts';
import type { PostDisplay } from '../../../contract/threads-embed.ts';
import type { Database } from '../../db/client.ts';
import { createModerationLogRepository } from '../../repositories/moderation-log.ts';
import { toModerationLogEntry } from '../../views/moderation-log-view.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { createModerationLogCache } from './log-cache.ts';

/** Browsers and shared caches may keep a page this long; the in-process cache is cleared on every decision. */
const CACHE_CONTROL = 'public, max-age=15';
/** The public moderation log (decision 014): thread decisions, newest first, 25 a page, no member data. */
const moderationRoutes: FastifyPluginAsync<{ db: Database; postDisplay: PostDisplay }> = async (
  server,
  { db, postDisplay },
) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const log = createModerationLogRepository(db);
  const cache = createModerationLogCache();
  // Approvals, rejections, threads hidden at the source and deleted accounts all change the log.
  app.onContentChanged(() => cache.clear());

  async function readPage(cursor: string): Promise<ModerationLogPage> {
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw new HttpError(400, BAD_CURSOR);
    const rows = await log.listDecisions(after, MODERATION_LOG_PAGE_SIZE + 1);
    const page = rows.slice(0, MODERATION_LOG_PAGE_SIZE);
    const last = page.at(-1);
    return {
      entries: page.map((row) => toModerationLogEntry(row, postDisplay)),
      next_cursor: rows.length > MODERATION_LOG_PAGE_SIZE && last ? encodeCursor(last.key) : null,
    };
  }

  const schema = { querystring: ModerationLogQuerySchema, response: { 200: ModerationLogPageSchema } };
  app.get('/api/moderation', { config: { access: 'public' }, schema }, async (request, reply) => {
    const { cursor = '' } = request.query;
    let page = cache.get(cursor);
    if (!page) {
      const generation = cache.generation();
      page = await readPage(cursor);
      cache.set(cursor, page, generation);
    }
    void reply.header('Cache-Control', CACHE_CONTROL);
    return page;
  });
};

export default moderationRoutes;
