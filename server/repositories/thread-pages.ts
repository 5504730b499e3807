import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { threads } from '../db/schema.ts';
import { CATALOGUE_ORDER } from './catalogue.ts';
import type { ThreadRow } from './threads.ts';

/**
 * Whether the thread's author asked never to be curated (decision 028), by their Threads username
 * or by the account that owns the post. author_opt_outs is small and indexed by username.
 */
const authorOptedOut = sql`exists (
  select 1 from author_opt_outs o
  left join users u on u.threads_user_id = o.threads_user_id
  where o.username = lower(${threads.username}) or u.id = ${threads.ownerUserId}
)`;

/** What a thread page reads (decision 046): one approved thread by id, and a few of its topic. */
export function createThreadPagesRepository(db: Database) {
  return {
    /** The thread when it is approved and its author has not opted out; null otherwise. `id` must be a UUID. */
    async findPublic(id: string, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx
        .select()
        .from(threads)
        .where(and(eq(threads.id, id), eq(threads.status, 'approved'), sql`not ${authorOptedOut}`));
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
            sql`not ${authorOptedOut}`,
          ),
        )
        .orderBy(sql`${CATALOGUE_ORDER} desc`, asc(threads.shortcode))
        .limit(limit);
    },
  };
}
export type ThreadPagesRepository = ReturnType<typeof createThreadPagesRepository>;
