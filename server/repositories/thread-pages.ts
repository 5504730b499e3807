import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { threads } from '../db/schema.ts';
import { CATALOGUE_ORDER } from './catalogue.ts';
import type { ThreadRow } from './threads.ts';

/** What a thread page reads (decision 046): one approved thread by id, and a few of its topic. */
export function createThreadPagesRepository(db: Database) {
  return {
    /**
     * The thread when it is approved, null otherwise; `id` must be a UUID. Exactly the catalogue's
     * cards have a page: an author who opted out keeps their approved cards until they remove them
     * (decision 028), and so their pages.
     */
    async findPublic(id: string, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx
        .select()
        .from(threads)
        .where(and(eq(threads.id, id), eq(threads.status, 'approved')));
      return row ?? null;
    },

    /**
     * The newest approved threads with the same topic tag (without regard to case) but `excludeId`,
     * at most `limit`: the threads_topic_order index answers it at any catalogue size.
     */
    async related(
      topicTag: string,
      excludeId: string,
      limit: number,
      tx: Database = db,
    ): Promise<ThreadRow[]> {
      return tx
        .select()
        .from(threads)
        .where(
          and(
            eq(threads.status, 'approved'),
            sql`lower(${threads.topicTag}) = lower(${topicTag})`,
            ne(threads.id, excludeId),
          ),
        )
        .orderBy(sql`${CATALOGUE_ORDER} desc`, asc(threads.shortcode))
        .limit(limit);
    },
  };
}
export type ThreadPagesRepository = ReturnType<typeof createThreadPagesRepository>;
