import { and, desc, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { DuplicateMatch } from '../../contract/review-signals.ts';
import type { Database } from '../db/client.ts';
import { imageKey, linkKey, normalisedText, textKey } from '../db/queue-keys.ts';
import { threads } from '../db/schema.ts';

/** Texts shorter than this (once normalised) are too common to call anything a duplicate. */
export const MIN_DUPLICATE_TEXT = 24;

/**
 * Words that sell rather than show (matched as whole words, without regard to case). Learned weight
 * comes from past decisions; the list only says which threads have the feature.
 */
export const PROMO_PATTERN =
  '\\m(discount|coupon|promo|giveaway|sale|buy now|shop now|link in bio|sponsored|limited time|free shipping|dm me|use code|% off)\\M';

const noLinks = sql`regexp_replace(${threads.text}, 'https?://[^[:space:]]+', '', 'g')`;

/** The features the quality score weighs, as SQL over `threads`: each a boolean. */
export const FEATURE_SQL = {
  image: sql<boolean>`${threads.imageUrl} is not null`,
  short: sql<boolean>`length(btrim(${threads.text})) < 80`,
  long: sql<boolean>`length(${threads.text}) >= 280`,
  link_only: sql<boolean>`(${threads.text} ~* 'https?://' and length(${normalisedText(noLinks)}) < 15)`,
  promo: sql<boolean>`${threads.text} ~* ${PROMO_PATTERN}`,
} as const;
export type Feature = keyof typeof FEATURE_SQL;
export const FEATURES = Object.keys(FEATURE_SQL) as Feature[];

/** What one pending thread's row carries for its signals: duplicate keys and features. */
export const SIGNAL_COLUMNS = {
  textKey: sql<
    string | null
  >`case when length(${normalisedText(threads.text)}) >= ${MIN_DUPLICATE_TEXT} then ${textKey(threads.text)} end`,
  linkKey: linkKey(threads.text).mapWith((value: string | null) => value),
  imageKey: imageKey(threads.imageUrl).mapWith((value: string | null) => value),
  ...FEATURE_SQL,
};

/** Per status, how many past decisions had each feature. */
export interface DecisionCounts {
  total: number;
  features: Record<Feature, number>;
}

/** A decided thread matching a pending one. */
export interface DuplicateRow {
  forKey: string;
  match: DuplicateMatch;
  id: string;
  status: 'approved' | 'rejected' | 'hidden' | 'removed';
}

/** How many of the past decisions to learn from: the newest, so the model's cost stays bounded. */
export const MODEL_WINDOW = 2000;

/**
 * The rejection reasons whose words the score learns: a pending thread that shares a telling word
 * with past threads rejected for one of them is marked (issue 22: learned from past reasons).
 */
export const LEARNED_REASONS = ['Promotional or spam', 'Not about design or UI'] as const;

/** A word of past threads rejected for `reason`: in how many of those, and in how many approved ones. */
export interface ReasonWord {
  reason: string;
  word: string;
  flagged: number;
  approved: number;
}

/** Words shorter than this say nothing alone (and, the, with); longer ones are usually links' debris. */
const WORD_LENGTH = { min: 4, max: 30 };
/** A word must have come up in this many rejections for a reason before it counts. */
const WORD_MIN_FLAGGED = 2;
/** Most words kept: the most frequent in the reasons' rejections. */
const WORDS_KEPT = 200;

/** The batched reads behind the review queue's signals: a few indexed queries per page, none per row. */
export function createReviewSignalsRepository(db: Database) {
  return {
    /** Approved and rejected threads per author (lower-cased username), for `names` only. */
    async authorHistory(names: string[]): Promise<Map<string, { approved: number; rejected: number }>> {
      if (names.length === 0) return new Map();
      const name = sql<string>`lower(${threads.username})`;
      const rows = await db
        .select({
          name,
          approved: sql<number>`count(*) filter (where ${threads.status} = 'approved')`.mapWith(Number),
          rejected: sql<number>`count(*) filter (where ${threads.status} = 'rejected')`.mapWith(Number),
        })
        .from(threads)
        .where(inArray(name, names))
        .groupBy(name);
      return new Map(rows.map(({ name: key, ...counts }) => [key, counts]));
    },

    /**
     * Decided threads sharing a key with the given ones (one indexed query per kind of match). At
     * most `limit` rows: a very common picture must not flood a page.
     */
    async duplicates(match: DuplicateMatch, keys: string[], limit = 200): Promise<DuplicateRow[]> {
      if (keys.length === 0) return [];
      const key =
        match === 'text'
          ? textKey(threads.text)
          : match === 'link'
            ? linkKey(threads.text)
            : imageKey(threads.imageUrl);
      const rows = await db
        .select({ forKey: sql<string>`${key}`, id: threads.id, status: threads.status })
        .from(threads)
        .where(and(sql`${threads.status} <> 'pending'`, inArray(key, keys)))
        .orderBy(desc(threads.decidedAt))
        .limit(limit);
      return rows.flatMap((row) => (row.status === 'pending' ? [] : [{ ...row, match, status: row.status }]));
    },

    /**
     * One grouped query over the newest MODEL_WINDOW decisions (the decided-at index reads them):
     * per status, how many and how many had each feature.
     */
    async decisionCounts(): Promise<{ approved: DecisionCounts; rejected: DecisionCounts }> {
      const recent = db
        .select({
          status: threads.status,
          ...Object.fromEntries(
            FEATURES.map((feature) => [feature, sql`${FEATURE_SQL[feature]}`.as(feature)]),
          ),
        })
        .from(threads)
        .where(and(isNotNull(threads.decidedAt), inArray(threads.status, ['approved', 'rejected'])))
        .orderBy(desc(threads.decidedAt))
        .limit(MODEL_WINDOW)
        .as('recent');
      const rows = await db
        .select({
          status: sql<string>`${recent.status}`,
          total: sql<number>`count(*)`.mapWith(Number),
          ...Object.fromEntries(
            FEATURES.map((feature) => [
              feature,
              sql<number>`count(*) filter (where ${sql.identifier('recent')}.${sql.identifier(feature)})`.mapWith(
                Number,
              ),
            ]),
          ),
        })
        .from(recent)
        .groupBy(recent.status);
      const empty = (): DecisionCounts => ({
        total: 0,
        features: Object.fromEntries(FEATURES.map((feature) => [feature, 0])) as Record<Feature, number>,
      });
      const counts = { approved: empty(), rejected: empty() };
      for (const row of rows as unknown as ({ status: string; total: number } & Record<Feature, number>)[]) {
        if (row.status !== 'approved' && row.status !== 'rejected') continue;
        counts[row.status] = {
          total: row.total,
          features: Object.fromEntries(FEATURES.map((feature) => [feature, row[feature]])) as Record<
            Feature,
            number
          >,
        };
      }
      return counts;
    },

    /**
     * The words of the newest MODEL_WINDOW decisions' texts rejected for one of LEARNED_REASONS, with
     * how many such rejections and how many approvals held each (one query, each word once per thread).
     */
    async reasonWords(): Promise<ReasonWord[]> {
      const result = await db.execute(sql`
        with recent as (
          select ${threads.id} as id, ${threads.status} as status, ${threads.decisionReason} as reason,
                 ${threads.text} as text
          from ${threads}
          where ${threads.decidedAt} is not null and ${threads.status} in ('approved', 'rejected')
          order by ${threads.decidedAt} desc
          limit ${MODEL_WINDOW}
        ),
        words as (
          select distinct recent.id, recent.status, recent.reason, word
          from recent, regexp_split_to_table(lower(recent.text), '[^[:alnum:]]+') as word
          where length(word) between ${WORD_LENGTH.min} and ${WORD_LENGTH.max}
        ),
        approved as (select word, count(*) as n from words where status = 'approved' group by word)
        select words.reason, words.word, count(*)::int as flagged, coalesce(max(approved.n), 0)::int as approved
        from words left join approved on approved.word = words.word
        where words.status = 'rejected' and words.reason in (${sql.join(
          LEARNED_REASONS.map((reason) => sql`${reason}`),
          sql`, `,
        )})
        group by words.reason, words.word
        having count(*) >= ${WORD_MIN_FLAGGED}
        order by flagged desc, words.word
        limit ${WORDS_KEPT}`);
      return (result as unknown as { rows: ReasonWord[] }).rows.map((row) => ({
        reason: row.reason,
        word: row.word,
        flagged: Number(row.flagged),
        approved: Number(row.approved),
      }));
    },
  };
}
export type ReviewSignalsRepository = ReturnType<typeof createReviewSignalsRepository>;

/** Pending threads whose author (by username, without regard to case) was rejected twice or more. */
export function rejectedTwice(): SQL {
  // Counted through the username index: the cost is the author's own threads, not the catalogue.
  return sql`(select count(*) from ${threads} as rejected_before
    where lower(rejected_before.username) = lower(${threads.username})
      and rejected_before.status = 'rejected') >= 2`;
}
