import { z } from './zod.ts';

/**
 * What the review queue tells the admin about each item beside its text (issue 22, decision 055):
 * the author's history here, near-duplicates already decided, and a small quality score with reasons.
 */

/** What made another thread a near-duplicate: the same normalised text, link or picture file. */
export const DUPLICATE_MATCHES = ['text', 'link', 'image'] as const;
export type DuplicateMatch = (typeof DUPLICATE_MATCHES)[number];

/** A thread already decided that looks like this one. `url` is its public page, when it has one. */
export const ReviewDuplicateSchema = z.object({
  match: z.enum(DUPLICATE_MATCHES),
  thread_id: z.string(),
  status: z.enum(['approved', 'rejected', 'hidden', 'removed']),
  url: z.nullable(z.string()),
});
export type ReviewDuplicate = z.infer<typeof ReviewDuplicateSchema>;

/** The signals of one queue item. */
export const ReviewSignalsSchema = z.object({
  /** The author's threads here (by username, without regard to case) that were approved / rejected. */
  author_approved: z.int().check(z.nonnegative()),
  author_rejected: z.int().check(z.nonnegative()),
  duplicates: z.array(ReviewDuplicateSchema),
  /** 0-100: how likely past decisions say an approval is. */
  score: z.int().check(z.minimum(0), z.maximum(100)),
  /** The features that moved the score most, in words. */
  score_reasons: z.array(z.string()),
  /** Pending threads of the same text, link or picture folded into this one (grouping on only). */
  grouped: z.int().check(z.nonnegative()),
});
export type ReviewSignals = z.infer<typeof ReviewSignalsSchema>;

/** The queue's filters beyond source and query, as the query string carries them. */
export const REVIEW_FLAGS = ['true', 'false'] as const;

/** The words of the signals' controls and chips. */
export const REVIEW_SIGNAL_TEXTS = {
  byScore: 'Best score first',
  hideRejectedAuthors: 'Hide authors rejected twice',
  groupDuplicates: 'Group duplicates',
  scoreLabel: 'Quality score',
} as const;

/** "Author: 3 approved, 1 rejected here" or "Author: new here". */
export function authorHistoryChip(
  signals: Pick<ReviewSignals, 'author_approved' | 'author_rejected'>,
): string {
  const { author_approved: approved, author_rejected: rejected } = signals;
  if (approved === 0 && rejected === 0) return 'Author: nothing decided here before';
  return `Author: ${approved} approved, ${rejected} rejected here`;
}

const MATCH_WORDS: Readonly<Record<DuplicateMatch, string>> = {
  text: 'Same text',
  link: 'Same link',
  image: 'Same picture',
};
const STATUS_WORDS: Readonly<Record<ReviewDuplicate['status'], string>> = {
  approved: 'already approved',
  rejected: 'already rejected',
  hidden: 'approved, then hidden',
  removed: 'removed by its author',
};

/** "Same link as a thread already rejected". */
export function duplicateChip(duplicate: Pick<ReviewDuplicate, 'match' | 'status'>): string {
  return `${MATCH_WORDS[duplicate.match]} as a thread ${STATUS_WORDS[duplicate.status]}`;
}

/** "Score 72 of 100". */
export const scoreChip = (score: number) => `Score ${score} of 100`;

/** "2 more like it in the queue". */
export const groupedChip = (n: number) => `${n} more like it in the queue`;

/** A piece of an item's text, and whether it is one of the words that found it. */
export interface TextPart {
  text: string;
  mark: boolean;
}

/**
 * The text cut where the words of `query` (a keyword or tag, '#' ignored) appear, without regard to
 * case, so the page can wrap those parts in <mark> as text nodes, never as HTML.
 */
export function highlightParts(text: string, query: string | null | undefined): TextPart[] {
  const words = (query ?? '')
    .toLowerCase()
    .split(/[\s#]+/u)
    .filter((word) => word.length >= 2);
  const lower = text.toLowerCase();
  // A few letters change length in lower case ('İ'): then nothing is marked rather than the wrong part.
  if (words.length === 0 || text === '' || lower.length !== text.length) return [{ text, mark: false }];
  const parts: TextPart[] = [];
  let at = 0;
  let plain = 0;
  while (at < text.length) {
    const word = words.find((candidate) => lower.startsWith(candidate, at));
    if (word) {
      if (plain < at) parts.push({ text: text.slice(plain, at), mark: false });
      parts.push({ text: text.slice(at, at + word.length), mark: true });
      at += word.length;
      plain = at;
    } else at += 1;
  }
  if (plain < text.length) parts.push({ text: text.slice(plain), mark: false });
  return parts;
}
