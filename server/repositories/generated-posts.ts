import { and, asc, desc, eq, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { generatedPosts, manualSubmissions, threads } from '../db/schema.ts';

export type GeneratedPostRow = typeof generatedPosts.$inferSelect;
export type NewGeneratedPost = typeof generatedPosts.$inferInsert;

/** Posts the curator's account publishes: about approved manual submissions, and the weekly digests' links. */
export function createGeneratedPostsRepository(db: Database) {
  const withSource = (tx: Database) =>
    tx
      .select({ post: generatedPosts, sourceUrl: threads.permalink })
      .from(generatedPosts)
      .innerJoin(threads, eq(threads.id, generatedPosts.threadId));

  return {
    /** Queues a post for a thread or a digest; each gets at most one (a repeat returns null). */
    async create(row: NewGeneratedPost, tx: Database = db): Promise<GeneratedPostRow | null> {
      const [created] = await tx.insert(generatedPosts).values(row).onConflictDoNothing().returning();
      return created ?? null;
    },

    /** The post queued for a thread, locked until the transaction ends (an undo decides on it). */
    async lockForThread(threadId: string, tx: Database = db): Promise<GeneratedPostRow | null> {
      const [row] = await tx
        .select()
        .from(generatedPosts)
        .where(eq(generatedPosts.threadId, threadId))
        .for('update');
      return row ?? null;
    },

    /** Drops a thread's post unless it was published; true when one was dropped. */
    async dropUnpublished(threadId: string, tx: Database = db): Promise<boolean> {
      const dropped = await tx
        .delete(generatedPosts)
        .where(and(eq(generatedPosts.threadId, threadId), ne(generatedPosts.status, 'published')))
        .returning({ id: generatedPosts.id });
      return dropped.length > 0;
    },

    /** The newest digest's post (decision 060), or null when no digest was posted yet. */
    async latestForDigest(tx: Database = db): Promise<GeneratedPostRow | null> {
      const [row] = await tx
        .select()
        .from(generatedPosts)
        .where(isNotNull(generatedPosts.digestId))
        .orderBy(desc(generatedPosts.digestId))
        .limit(1);
      return row ?? null;
    },

    /** Every post about a submission with the link it features, newest first (admins; digests' posts are not). */
    async listAll(tx: Database = db) {
      return withSource(tx).orderBy(desc(generatedPosts.createdAt), asc(generatedPosts.id));
    },

    /** Generated posts about one member's submissions, newest first. */
    async listForSubmitter(userId: string, tx: Database = db) {
      return withSource(tx)
        .innerJoin(manualSubmissions, eq(manualSubmissions.threadId, generatedPosts.threadId))
        .where(eq(manualSubmissions.userId, userId))
        .orderBy(desc(generatedPosts.createdAt), asc(generatedPosts.id));
    },

    /** Pending posts whose next attempt is due, oldest first. */
    async listDue(now: Date, limit: number, tx: Database = db): Promise<GeneratedPostRow[]> {
      return tx
        .select()
        .from(generatedPosts)
        .where(and(eq(generatedPosts.status, 'pending'), lte(generatedPosts.nextAttemptAt, now)))
        .orderBy(asc(generatedPosts.nextAttemptAt))
        .limit(limit);
    },

    /** Remembers the container made for a post and when (Threads expires it 24 hours later). */
    async saveCreationId(id: string, creationId: string, createdAt: Date, tx: Database = db): Promise<void> {
      await tx
        .update(generatedPosts)
        .set({ creationId, containerCreatedAt: createdAt })
        .where(eq(generatedPosts.id, id));
    },

    /**
     * Moves pending posts to a later attempt without spending one (Threads' publishing limit, a
     * container still processing), with the reason. One statement: all of them or none.
     */
    async postpone(ids: readonly string[], reason: string, until: Date, tx: Database = db): Promise<void> {
      if (ids.length === 0) return;
      await tx
        .update(generatedPosts)
        .set({ error: reason, nextAttemptAt: until })
        .where(and(inArray(generatedPosts.id, [...ids]), eq(generatedPosts.status, 'pending')));
    },

    /** Media ids of the posts the curator published: curation must not collect them as their own posts. */
    async publishedMediaIds(tx: Database = db): Promise<Set<string>> {
      const rows = await tx
        .select({ mediaId: generatedPosts.mediaId })
        .from(generatedPosts)
        .where(eq(generatedPosts.status, 'published'));
      return new Set(rows.flatMap((row) => (row.mediaId ? [row.mediaId] : [])));
    },

    async markPublished(
      id: string,
      published: { mediaId: string | null; threadUrl: string | null },
      tx: Database = db,
    ): Promise<void> {
      await tx
        .update(generatedPosts)
        .set({
          status: 'published',
          ...published,
          error: null,
          attempts: sql`${generatedPosts.attempts} + 1`,
          publishedAt: sql`now()`,
        })
        .where(eq(generatedPosts.id, id));
    },

    /**
     * Records a failed attempt: retried at `retryAt`, or failed for good when that is null. With
     * `dropContainer` the container is forgotten (it failed or expired): the next attempt makes one.
     */
    async markAttemptFailed(
      id: string,
      error: string,
      retryAt: Date | null,
      { dropContainer = false }: { dropContainer?: boolean } = {},
      tx: Database = db,
    ) {
      await tx
        .update(generatedPosts)
        .set({
          error,
          attempts: sql`${generatedPosts.attempts} + 1`,
          ...(retryAt ? { nextAttemptAt: retryAt } : { status: 'failed' as const }),
          ...(dropContainer ? { creationId: null, containerCreatedAt: null } : {}),
        })
        .where(eq(generatedPosts.id, id));
    },
  };
}
export type GeneratedPostsRepository = ReturnType<typeof createGeneratedPostsRepository>;
