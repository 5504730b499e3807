import {
  FEATURES,
  type DecisionCounts,
  type Feature,
  type ReasonWord,
  type ReviewSignalsRepository,
} from '../../repositories/review-signals.ts';

/** A pending thread's features, its text, and its author's past decisions here. */
export interface ScoreInput {
  features: Record<Feature, boolean>;
  author: { approved: number; rejected: number };
  text?: string;
}

/** What the score learns from: past decisions' counts, and the words of past rejections' reasons. */
export interface LearnedCounts {
  approved: DecisionCounts;
  rejected: DecisionCounts;
  reasonWords?: readonly ReasonWord[];
}

/** A score of 0-100 and the reasons that moved it most, in words. */
export interface Score {
  score: number;
  reasons: string[];
}

/** What each feature reads like when a thread has it (and, for the picture, when it has none). */
const PRESENT: Readonly<Record<Feature, string>> = {
  image: 'Has a picture',
  short: 'Very short text',
  long: 'Long text',
  link_only: 'Only a link',
  promo: 'Promotional words',
};
const ABSENT: Partial<Record<Feature, string>> = { image: 'No picture' };

/** Below this many past decisions the score says it has little to go on. */
const FEW_DECISIONS = 10;
/** Moves smaller than this (in log-odds) are not worth a reason. */
const NOTABLE = 0.1;

const ratio = (part: number, total: number) => (part + 1) / (total + 2);

/**
 * Naive Bayes over past approvals and rejections: the prior log-odds of an approval, plus per
 * feature log(P(value | approved) / P(value | rejected)) with Laplace smoothing, plus the author's
 * own smoothed approval log-odds against the whole catalogue's, plus the most telling word the text
 * shares with past rejections for a learned reason (tellingWord).
 */
export function scoreOf(counts: LearnedCounts, input: ScoreInput): Score {
  const { approved: a, rejected: r } = counts;
  const prior = Math.log((a.total + 1) / (r.total + 1));
  const moves: { words: string | undefined; weight: number }[] = FEATURES.map((feature) => {
    const has = input.features[feature];
    const pa = ratio(a.features[feature], a.total);
    const pr = ratio(r.features[feature], r.total);
    const weight = has ? Math.log(pa / pr) : Math.log((1 - pa) / (1 - pr));
    return { words: has ? PRESENT[feature] : ABSENT[feature], weight };
  });
  const { approved, rejected } = input.author;
  if (approved + rejected > 0) {
    const weight = Math.log((approved + 1) / (rejected + 1)) - prior;
    const words = approved >= rejected ? 'Author mostly approved here' : 'Author mostly rejected here';
    moves.push({ words, weight });
  }
  const telling = tellingWord(counts, input.text ?? '');
  if (telling) moves.push(telling);
  const total = prior + moves.reduce((sum, move) => sum + move.weight, 0);
  const score = Math.round(100 / (1 + Math.exp(-total)));
  const reasons = moves
    .filter((move) => move.words !== undefined && Math.abs(move.weight) >= NOTABLE)
    .sort((x, y) => Math.abs(y.weight) - Math.abs(x.weight))
    .slice(0, 3)
    .map((move) => `${move.words}: ${move.weight > 0 ? 'raises' : 'lowers'} the score`);
  if (a.total + r.total < FEW_DECISIONS) reasons.push('Few past decisions to learn from');
  return { score: Math.min(100, Math.max(0, score)), reasons };
}

/** A text's words as the database splits them (reasonWords): lower case, letters and digits. */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u));
}

/**
 * The word of `text` that past rejections for a learned reason held most against approvals, as a
 * move: log(P(word | approved) / P(word | rejected)), smoothed. One word at most, so a text full of
 * them is not counted over and over; none when no word lowers the score notably.
 */
function tellingWord(counts: LearnedCounts, text: string): { words: string; weight: number } | null {
  if (!counts.reasonWords?.length || text === '') return null;
  const words = wordsOf(text);
  let best: { words: string; weight: number } | null = null;
  for (const learned of counts.reasonWords) {
    if (!words.has(learned.word)) continue;
    const weight = Math.log(
      ratio(learned.approved, counts.approved.total) / ratio(learned.flagged, counts.rejected.total),
    );
    if (weight <= -NOTABLE && (!best || weight < best.weight))
      best = { words: `“${learned.word}”, as in past rejections for “${learned.reason}”`, weight };
  }
  return best;
}

/** How long the learned counts are reused before one grouped query reads them again. */
export const MODEL_TTL_MS = 60_000;

/** The past decisions' counts and reasons' words, read by two grouped queries at most once per TTL (per server). */
export function createQualityModel(repository: ReviewSignalsRepository, ttlMs = MODEL_TTL_MS) {
  let cached: { at: number; counts: Promise<LearnedCounts> } | null = null;
  return {
    /** The counts, from the cache while fresh. */
    counts() {
      const now = Date.now();
      if (!cached || now - cached.at > ttlMs) {
        const counts = Promise.all([repository.decisionCounts(), repository.reasonWords()]).then(
          ([decided, reasonWords]) => ({ ...decided, reasonWords }),
        );
        // A failed read is not kept: the next request tries again.
        counts.catch(() => (cached = null));
        cached = { at: now, counts };
      }
      return cached.counts;
    },
  };
}
export type QualityModel = ReturnType<typeof createQualityModel>;
