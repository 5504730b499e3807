import { and, ne, desc, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { manualSubmissions, profiles, threads, users } from '../db/schema.ts';

/**
 * Where a page of the log starts: just after this decision. `decidedAt` is PostgreSQL's own text of
 * the timestamp, to the microsecond: a JavaScript Date keeps milliseconds only, and a key rounded to
 * them would skip or repeat decisions made within the same millisecond.
 */
export interface DecisionKey {
  decidedAt: string;
  id: string;
}

/** One decided thread as the public log reads it: only the columns it may show, and the paging key. */
export interface DecisionRow {
  id: string;
  permalink: string;
  username: string | null;
  /** The start of the post's text (the log shows an excerpt; the rest is not read). */
  text: string;
  topicTag: string | null;
  /** Its author chose 'Show my posts as cards' (decision 070). */
  shownAsCard: boolean;
  status: 'approved' | 'rejected';
  decidedAt: Date;
  reason: string | null;
  key: DecisionKey;
}

/**
 * A member's own post, whoever submitted it: its author holds an approved profile here (their public
 * page is matched to their Threads handle). Matched by the username they have now, without regard to case.
 */
const byMember = sql`exists (select 1 from ${users} join ${profiles} on ${profiles.userId} = ${users.id} where ${profiles.status} = 'approved' and lower(${users.threadsUsername}) = lower(${threads.username}))`;

/**
 * A post submitted by its own author: the submitter's Threads username is the post's, or, for a
 * link Threads has not attributed, the one they typed into it (stored canonical, lower case). The
 * typed handle attributes nothing (decision 063), but it may still keep a post off the public log.
 */
const submittedByItsAuthor = sql`exists (select 1 from ${manualSubmissions} join ${users} on ${users.id} = ${manualSubmissions.userId} where ${manualSubmissions.threadId} = ${threads.id} and (lower(${users.threadsUsername}) = lower(${threads.username}) or ${manualSubmissions.threadUrl} = 'https://www.threads.com/@' || lower(${users.threadsUsername}) || '/post/' || ${threads.shortcode}))`;

/** The text of a timestamp in UTC with all six fractional digits, which `::timestamptz` reads back exactly. */
const exactDecidedAt = sql<string>`to_char(${threads.decidedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The public moderation log: approved and rejected threads, newest decision first, paged on
 * (decided_at, id) with the threads_decided index. Threads hidden at the source are left out: their
 * author withdrew them (decision 014); so are those their author removed and members' own posts
 * (decision 028).
 */
export function createModerationLogRepository(db: Database) {
  return {
    /** Up to `limit` decisions made before `after` (from the newest when null). */
    async listDecisions(after: DecisionKey | null, limit: number, tx: Database = db): Promise<DecisionRow[]> {
      const rows = await tx
        .select({
          id: threads.id,
          permalink: threads.permalink,
          username: threads.username,
          text: sql<string>`left(${threads.text}, 400)`,
          topicTag: threads.topicTag,
          shownAsCard: threads.shownAsCard,
          status: threads.status,
          decidedAt: threads.decidedAt,
          reason: threads.decisionReason,
          exactDecidedAt,
        })
        .from(threads)
        .where(
          and(
            inArray(threads.status, ['approved', 'rejected']),
            // A member's own posts (fetched with their token, perhaps from a private account) are
            // matched to their public profile by handle: their decisions stay off the public log.
            ne(threads.source, 'user_own'),
            // Nor any post that is someone's own in any other way (decision 028): fetched with their
            // token (an owner), submitted by its author (even when only the handle tells), or written
            // by a member. Removed posts are never listed: only approved and rejected ones are.
            isNull(threads.ownerUserId),
            sql`not ${submittedByItsAuthor}`,
            sql`not ${byMember}`,
            isNotNull(threads.decidedAt),
            after
              ? sql`(${threads.decidedAt}, ${threads.id}) < (${after.decidedAt}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(threads.decidedAt), desc(threads.id))
        .limit(limit);
      return rows.map(({ exactDecidedAt: decidedAtText, decidedAt, status, ...row }) => ({
        ...row,
        status: status === 'approved' ? 'approved' : 'rejected',
        decidedAt: decidedAt ?? new Date(0),
        key: { decidedAt: decidedAtText, id: row.id },
      }));
    },
  };
}
export type ModerationLogRepository = ReturnType<typeof createModerationLogRepository>;
