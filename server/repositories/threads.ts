import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  lt,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { manualSubmissions, threads } from '../db/schema.ts';

export type ThreadRow = typeof threads.$inferSelect;
export type NewThread = typeof threads.$inferInsert;
export type ThreadDecision = 'approved' | 'rejected';

/** An author as the catalogue can tell them: their Threads username now, and their account here. */
export interface AuthorIdentity {
  username: string;
  userId: string;
}

/**
 * The author's posts: by their current Threads username (what search results carry) without
 * regard to case, or owned by their account (their own posts and submissions fetched with their token).
 */
function byAuthor({ username, userId }: AuthorIdentity): SQL {
  return or(
    sql`lower(${threads.username}) = ${username.toLowerCase()}`,
    eq(threads.ownerUserId, userId),
  ) as SQL;
}

/**
 * On a post seen again through the API: the author Threads names now (a rename follows), the
 * account it belongs to once known, and what a submitted link lacked (its text, picture and time).
 * Only API results reach `excluded` here, so a handle typed into a link never does (decision 063).
 */
const verifiedAuthor = {
  username: sql`coalesce(excluded.username, ${threads.username})`,
  authorName: sql`coalesce(excluded.author_name, ${threads.authorName})`,
  ownerUserId: sql`coalesce(${threads.ownerUserId}, excluded.owner_user_id)`,
  permalink: sql`case when excluded.username is null then ${threads.permalink} else excluded.permalink end`,
  text: sql`case when ${threads.text} = '' then excluded.text else ${threads.text} end`,
  imageUrl: sql`coalesce(${threads.imageUrl}, excluded.image_url)`,
  imageExpiresAt: sql`case when ${threads.imageUrl} is null then excluded.image_expires_at else ${threads.imageExpiresAt} end`,
  topicTag: sql`coalesce(${threads.topicTag}, excluded.topic_tag)`,
  postedAt: sql`coalesce(${threads.postedAt}, excluded.posted_at)`,
};

/** Curated threads: what searches and members found, and what admins decided. */
export function createThreadsRepository(db: Database) {
  return {
    /**
     * Adds posts not seen before (keyed on the shortcode) as pending; a post seen again gets its
     * counters and fetch time refreshed and its author as Threads tells it (decision 063), never its
     * status or source. Returns how many were new.
     */
    async upsertFound(rows: NewThread[], tx: Database = db): Promise<number> {
      if (rows.length === 0) return 0;
      const result = await tx
        .insert(threads)
        .values(rows)
        .onConflictDoUpdate({
          target: threads.shortcode,
          set: {
            likes: sql`coalesce(excluded.likes, ${threads.likes})`,
            replies: sql`coalesce(excluded.replies, ${threads.replies})`,
            mediaId: sql`coalesce(${threads.mediaId}, excluded.media_id)`,
            fetchedAt: sql`now()`,
            ...verifiedAuthor,
          },
        })
        // xmax is 0 only on a row this statement inserted.
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      return result.filter((row) => row.inserted).length;
    },

    /**
     * Known posts Threads now names an opted-out author for: they take that author (so they are
     * theirs to see and remove), and those waiting for review leave the queue as an opt-out does.
     * Returns the ids that left the queue.
     */
    async attributeOptedOut(rows: NewThread[], tx: Database = db): Promise<string[]> {
      const left: string[] = [];
      for (const row of rows) {
        const [waiting] = await tx
          .update(threads)
          .set({ status: 'removed', statusBeforeRemoval: 'pending' })
          .where(and(eq(threads.shortcode, row.shortcode), eq(threads.status, 'pending')))
          .returning({ id: threads.id });
        if (waiting) left.push(waiting.id);
        await tx
          .update(threads)
          .set({
            username: row.username,
            authorName: sql`coalesce(${row.authorName ?? null}, ${threads.authorName})`,
            ownerUserId: sql`coalesce(${threads.ownerUserId}, ${row.ownerUserId ?? null}::uuid)`,
            permalink: row.permalink,
          })
          .where(eq(threads.shortcode, row.shortcode));
      }
      return left;
    },

    /** Adds one thread unless its shortcode is known; null when it was (the caller explains). */
    async insertIfNew(row: NewThread, tx: Database = db): Promise<ThreadRow | null> {
      const [created] = await tx.insert(threads).values(row).onConflictDoNothing().returning();
      return created ?? null;
    },

    async findByShortcode(shortcode: string, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx.select().from(threads).where(eq(threads.shortcode, shortcode));
      return row ?? null;
    },

    /**
     * Waiting for review, newest post first (spec section 7): found posts and manual submissions in
     * one list, each submission with the note its member sent.
     */
    async listPending(tx: Database = db): Promise<(ThreadRow & { notes: string | null })[]> {
      return tx
        .select({ ...getTableColumns(threads), notes: manualSubmissions.notes })
        .from(threads)
        .leftJoin(manualSubmissions, eq(manualSubmissions.threadId, threads.id))
        .where(eq(threads.status, 'pending'))
        .orderBy(sql`coalesce(${threads.postedAt}, ${threads.createdAt}) desc`, desc(threads.createdAt));
    },

    /** A member's own posts, newest first. */
    async listOwn(userId: string, tx: Database = db): Promise<ThreadRow[]> {
      return tx
        .select()
        .from(threads)
        .where(eq(threads.ownerUserId, userId))
        .orderBy(sql`coalesce(${threads.postedAt}, ${threads.createdAt}) desc`);
    },

    /**
     * Decides a pending thread. Conditional on 'pending', so of two simultaneous decisions exactly one
     * changes the row; the other gets null.
     */
    async decide(
      id: string,
      status: ThreadDecision,
      tx: Database = db,
      reason: string | null = null,
    ): Promise<ThreadRow | null> {
      const [row] = await tx
        .update(threads)
        .set({ status, decidedAt: sql`now()`, decisionReason: reason })
        .where(and(eq(threads.id, id), eq(threads.status, 'pending')))
        .returning();
      return row ?? null;
    },

    async find(id: string, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx.select().from(threads).where(eq(threads.id, id));
      return row ?? null;
    },

    /** Approved posts with a media id, least recently checked first: the deletion sync's work list. */
    async listApprovedToRecheck(limit: number, tx: Database = db): Promise<ThreadRow[]> {
      return tx
        .select()
        .from(threads)
        .where(and(eq(threads.status, 'approved'), isNotNull(threads.mediaId)))
        .orderBy(asc(threads.fetchedAt))
        .limit(limit);
    },

    /** Marks the posts as checked now. */
    async touch(ids: string[], tx: Database = db): Promise<void> {
      if (ids.length > 0)
        await tx
          .update(threads)
          .set({ fetchedAt: sql`now()` })
          .where(inArray(threads.id, ids));
    },

    /** The deletion sync read these posts at the source: checked now, and no longer missing. */
    async markSeenAtSource(ids: string[], tx: Database = db): Promise<void> {
      if (ids.length > 0)
        await tx
          .update(threads)
          .set({ fetchedAt: sql`now()`, missingSince: null })
          .where(inArray(threads.id, ids));
    },

    /**
     * A miss at the source that could not be confirmed: checked now, missing since `at` unless it
     * already was. Returns the first miss (the earlier one when it was already missing).
     */
    async recordMissing(id: string, at: Date, tx: Database = db): Promise<Date | null> {
      const [row] = await tx
        .update(threads)
        .set({
          fetchedAt: sql`now()`,
          missingSince: sql`coalesce(${threads.missingSince}, ${at.toISOString()}::timestamptz)`,
        })
        .where(eq(threads.id, id))
        .returning({ missingSince: threads.missingSince });
      return row?.missingSince ?? null;
    },

    /** Hides one approved post confirmed gone at the source; null when it is no longer approved. */
    async hideGoneAtSource(id: string, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx
        .update(threads)
        .set({ status: 'hidden', fetchedAt: sql`now()` })
        .where(and(eq(threads.id, id), eq(threads.status, 'approved')))
        .returning();
      return row ?? null;
    },

    /** Stores a thread's refreshed picture address and when it expires (decision 025). */
    async setPicture(
      id: string,
      picture: { imageUrl: string; imageExpiresAt: Date | null },
      tx: Database = db,
    ): Promise<void> {
      await tx.update(threads).set(picture).where(eq(threads.id, id));
    },

    /**
     * Approved threads whose picture expires before `cutoff`, soonest first: the picture refresh
     * job's work list (decision 025).
     */
    async listPicturesExpiringBefore(cutoff: Date, limit: number, tx: Database = db): Promise<ThreadRow[]> {
      return tx
        .select()
        .from(threads)
        .where(
          and(
            eq(threads.status, 'approved'),
            isNotNull(threads.imageUrl),
            isNotNull(threads.mediaId),
            lt(threads.imageExpiresAt, cutoff),
          ),
        )
        .orderBy(asc(threads.imageExpiresAt))
        .limit(limit);
    },

    /** The author's posts in every status, newest first (at most `limit`). */
    async listByAuthor(author: AuthorIdentity, limit: number, tx: Database = db): Promise<ThreadRow[]> {
      return tx
        .select()
        .from(threads)
        .where(byAuthor(author))
        .orderBy(sql`coalesce(${threads.postedAt}, ${threads.createdAt}) desc`, desc(threads.id))
        .limit(limit);
    },

    /** One of the author's posts; null when the id names none of theirs. */
    async findOfAuthor(id: string, author: AuthorIdentity, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx
        .select()
        .from(threads)
        .where(and(eq(threads.id, id), byAuthor(author)));
      return row ?? null;
    },

    /**
     * The author takes one of their posts out of the catalogue: any status but 'removed' becomes
     * 'removed', remembering what it was. Null when it is not theirs or already removed.
     */
    async removeByAuthor(id: string, author: AuthorIdentity, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx
        .update(threads)
        // The right-hand side reads the row as it was before this update.
        .set({ status: 'removed', statusBeforeRemoval: sql`${threads.status}` })
        .where(and(eq(threads.id, id), ne(threads.status, 'removed'), byAuthor(author)))
        .returning();
      return row ?? null;
    },

    /** Puts a post its author removed back as it was. Null when it is not theirs or not removed. */
    async restoreByAuthor(id: string, author: AuthorIdentity, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx
        .update(threads)
        .set({ status: sql`${threads.statusBeforeRemoval}`, statusBeforeRemoval: null })
        .where(
          and(
            eq(threads.id, id),
            eq(threads.status, 'removed'),
            isNotNull(threads.statusBeforeRemoval),
            byAuthor(author),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Takes every post of the author waiting for review out of the queue (an opt-out); returns their ids. */
    async removePendingOfAuthor(author: AuthorIdentity, tx: Database = db): Promise<string[]> {
      const rows = await tx
        .update(threads)
        .set({ status: 'removed', statusBeforeRemoval: 'pending' })
        .where(and(eq(threads.status, 'pending'), byAuthor(author)))
        .returning({ id: threads.id });
      return rows.map((row) => row.id);
    },

    /** How many posts each of these lower-case usernames removed from the catalogue (absent: none). */
    async removedCounts(usernames: string[], tx: Database = db): Promise<Map<string, number>> {
      if (usernames.length === 0) return new Map();
      const name = sql<string>`lower(${threads.username})`;
      const rows = await tx
        .select({ name, n: count() })
        .from(threads)
        .where(and(eq(threads.status, 'removed'), inArray(name, usernames)))
        .groupBy(name);
      return new Map(rows.map((row) => [row.name, row.n]));
    },
  };
}
export type ThreadsRepository = ReturnType<typeof createThreadsRepository>;
